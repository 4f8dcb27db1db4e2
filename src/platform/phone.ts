// Strict E.164 (contract: POST /v1/sms `to`, "E.164 phone number"). libphonenumber-js alone is lenient
// (it accepts "+234 803 123 4567" and "…x12"), so a number must pass all three: the shape
// `+` and 2 to 15 digits with no leading 0, the parser giving back exactly the input, and validity
// under the `max` metadata (the `min` metadata checks only the length).
import { parsePhoneNumberFromString, type NumberType } from 'libphonenumber-js/max';

const E164 = /^\+[1-9]\d{1,14}$/;

/** libphonenumber-js's line types (`MOBILE`, `FIXED_LINE_OR_MOBILE`, `PREMIUM_RATE`, …); null when unknown. */
export type PhoneNumberType = Exclude<NumberType, undefined> | null;

export interface ParsedPhone {
  ok: true;
  e164: string;
  /** ISO 3166 alpha-2; null for non-geographic numbers (+800, +882, …). */
  country: string | null;
  numberType: PhoneNumberType;
}

export interface PhoneRefusal {
  ok: false;
  /** Plain words for a 400 message. */
  reason: string;
}

export function parsePhone(input: string): ParsedPhone | PhoneRefusal {
  if (!E164.test(input)) {
    return { ok: false, reason: 'must be an E.164 number: + then 2 to 15 digits, no spaces or dashes' };
  }
  const number = parsePhoneNumberFromString(input);
  if (number === undefined || number.number !== input || !number.isValid()) {
    return { ok: false, reason: 'is not a valid phone number' };
  }
  return { ok: true, e164: input, country: number.country ?? null, numberType: number.getType() ?? null };
}

/** The contract's masked `to`: the last four digits shown, every other digit a `*`. */
export function maskPhone(e164: string): string {
  const digits = e164.startsWith('+') ? e164.slice(1) : e164;
  const shown = Math.min(4, digits.length);
  return `+${'*'.repeat(digits.length - shown)}${digits.slice(digits.length - shown)}`;
}

/** The number without its last four digits: numbers sharing it sit in one range (SMS pumping hits ranges). */
export function phonePrefix(e164: string): string {
  return e164.slice(0, -4);
}
