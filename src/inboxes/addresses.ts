// Inbox addresses: stored lower case as local@domain. A recipient reaches an inbox whatever its
// case and whatever `+tag` it carries (support+billing@ is support@), so local parts of inboxes
// never contain '+'.

/** The inbox address a recipient is for: lower case, `+tag` removed; null when it is no address. */
export function inboxAddressOf(recipient: string): string | null {
  const at = recipient.lastIndexOf('@');
  if (at <= 0 || at === recipient.length - 1) return null;
  const local = recipient.slice(0, at).toLowerCase();
  const domain = recipient.slice(at + 1).toLowerCase();
  const plus = local.indexOf('+');
  const base = plus === -1 ? local : local.slice(0, plus);
  return base === '' ? null : `${base}@${domain}`;
}

export const domainOf = (address: string) => address.slice(address.lastIndexOf('@') + 1);
