// Addresses in the forms the contract allows: `addr@example.com` or `Name <addr@example.com>`.
import type { AddressField } from '../db/schema.ts';

/** Contract rule 2: at most 50 distinct recipients across to, cc and bcc. */
export const RECIPIENTS_MAX = 50;

// A pragmatic address check: one @, no blanks or angle brackets, a dotted domain of sane labels.
const ADDRESS =
  /^[^\s<>@,;"]{1,64}@(?=.{1,253}$)(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z0-9-]{2,63}$/;
const DISPLAY_FORM = /^\s*(?:"([^"\r\n]*)"|([^<>\r\n"]*?))\s*<([^<>\s]+)>\s*$/;

interface ParsedAddress {
  /** The display name, if any. */
  name: string | null;
  /** The address as given. */
  address: string;
}

/** The address inside `Name <addr>` or a bare address; null when it is neither. */
export function parseAddress(value: string): ParsedAddress | null {
  const display = DISPLAY_FORM.exec(value);
  if (display) {
    const address = display[3]!;
    if (!ADDRESS.test(address)) return null;
    const name = (display[1] ?? display[2] ?? '').trim();
    return { name: name === '' ? null : name, address };
  }
  const bare = value.trim();
  return ADDRESS.test(bare) ? { name: null, address: bare } : null;
}

export function isAddress(value: string): boolean {
  return parseAddress(value) !== null;
}

export function listOf(field: AddressField | null | undefined): string[] {
  if (field === undefined || field === null) return [];
  return typeof field === 'string' ? [field] : field;
}

/** The part after @ of an address, lower-cased. */
export function domainOf(address: string): string {
  return address.slice(address.lastIndexOf('@') + 1).toLowerCase();
}

/** Distinct recipients across to, cc and bcc: lower-cased addresses, in first-seen order. */
export function distinctRecipients(fields: (AddressField | null | undefined)[]): string[] {
  const seen = new Set<string>();
  for (const field of fields) {
    for (const value of listOf(field)) {
      const parsed = parseAddress(value);
      if (parsed) seen.add(parsed.address.toLowerCase());
    }
  }
  return [...seen];
}
