// Checks of a contact book's double opt-in fields that the schema alone cannot make.
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Database } from '../db/schema.ts';
import { canSendFrom } from '../domains/index.ts';
import { ApiError, badRequest } from '../platform/errors.ts';
import { parseEditorDocument } from '../templates/index.ts';

const NAMED_ADDRESS = /^(.*?)\s*<([^<>]+)>$/;

/** The address part of `address` or `Name <address>`, or null when it is not an email address. */
export function addressOf(from: string): string | null {
  const match = NAMED_ADDRESS.exec(from);
  const address = (match ? match[2]! : from).trim();
  return z.regexes.email.test(address) ? address : null;
}

/** Contract: doubleOptInFrom must use a verified domain (of the team). */
export async function checkDoubleOptInFrom(db: Kysely<Database>, teamId: number, from: string): Promise<void> {
  const address = addressOf(from);
  if (address === null) throw badRequest('doubleOptInFrom: must be an email address or "Name <address>"');
  const domain = address.slice(address.lastIndexOf('@') + 1).toLowerCase();
  if (!(await canSendFrom(db, teamId, domain))) {
    throw badRequest(`doubleOptInFrom: ${domain} is not a verified sending domain of the team`);
  }
}

/** Contract: doubleOptInContent is email-editor JSON, validated as the templates area validates `content`. */
export function checkDoubleOptInContent(content: string): void {
  try {
    parseEditorDocument(content);
  } catch (error) {
    if (error instanceof ApiError) throw badRequest(`doubleOptInContent: ${error.message.replace(/^content: /, '')}`);
    throw error;
  }
}
