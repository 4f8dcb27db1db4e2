// Opaque cursors for the contract's cursor-paged lists. A cursor names the list and the team it
// was made for and is signed, so a cursor from another list or team, or an edited one, is a 400.
import { z } from 'zod';
import { safeEqual, type Secrets } from './crypto.ts';
import { ApiError } from './errors.ts';

export type CursorPosition = readonly (string | number)[];

interface CursorBody {
  l: string;
  t: number;
  p: CursorPosition;
}

const SIGNATURE_BYTES = 16;

function sign(secrets: Secrets, body: string): Buffer {
  return secrets.hmac('cursor', body).subarray(0, SIGNATURE_BYTES);
}

export function encodeCursor(secrets: Secrets, list: string, teamId: number, position: CursorPosition): string {
  const body = Buffer.from(JSON.stringify({ l: list, t: teamId, p: position } satisfies CursorBody));
  return `${body.toString('base64url')}.${sign(secrets, body.toString('base64url')).toString('base64url')}`;
}

const invalidCursor = () =>
  new ApiError(400, 'BAD_REQUEST', 'cursor is not valid for this list; pass back the nextCursor of a previous page');

/** Returns the position a cursor points after; 400 when it is not a cursor of this list and team. */
export function decodeCursor(secrets: Secrets, cursor: string, list: string, teamId: number): CursorPosition {
  const [body, signature, ...rest] = cursor.split('.');
  if (!body || !signature || rest.length > 0 || cursor.length > 1024) throw invalidCursor();
  if (!safeEqual(Buffer.from(signature, 'base64url'), sign(secrets, body))) throw invalidCursor();
  let parsed: CursorBody;
  try {
    parsed = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as CursorBody;
  } catch {
    throw invalidCursor();
  }
  if (parsed.l !== list || parsed.t !== teamId || !Array.isArray(parsed.p)) throw invalidCursor();
  return parsed.p;
}

/** Builds a page: asks for limit + 1 rows, returns limit and a cursor when more exist. */
export function cursorPage<Row>(
  rows: Row[],
  limit: number,
  makeCursor: (last: Row) => string,
): { data: Row[]; nextCursor: string | null } {
  const more = rows.length > limit;
  const data = more ? rows.slice(0, limit) : rows;
  return { data, nextCursor: more ? makeCursor(data[data.length - 1]!) : null };
}

/** Query parameter schemas shared by list endpoints; out-of-range values answer 400 naming the field. */
export const limitParam = (max: number, fallback: number, min = 1) =>
  z.coerce.number().int().min(min).max(max).default(fallback);
export const pageParam = (max = Number.MAX_SAFE_INTEGER) => z.coerce.number().int().min(1).max(max).default(1);
export const cursorParam = z.string().min(1).max(1024).optional();
