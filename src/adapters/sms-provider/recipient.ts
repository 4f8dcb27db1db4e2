// The recipient a delivery report names, as E.164 ("+" and digits), or nothing: providers write it
// with or without the "+" (Termii's `receiver` has none).
export function reportedRecipient(value: unknown): { to: string } | Record<string, never> {
  if (typeof value !== 'string') return {};
  const digits = value.startsWith('+') ? value.slice(1) : value;
  return /^[1-9]\d{1,14}$/.test(digits) ? { to: `+${digits}` } : {};
}
