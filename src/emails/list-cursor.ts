// Cursor paging of the email list: opaque cursors (a position and which way it reads), and a page
// with the cursors on both sides of it. Reading newer until the newest emails gives the first page.
import { z } from 'zod';
import type { Db } from '../db/handle.ts';
import { badRequest } from '../platform/errors.ts';
import {
  listEmailsByCursor,
  type EmailListFields,
  type EmailListFilter,
  type EmailListPlace,
  type EmailListPosition,
} from './list-queries.ts';
import { emailListView } from './views.ts';

const LIST = 'emails';
const AT = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/;
const ID = /^[\w-]{1,64}$/;
type Op = EmailListPosition['op'];

/**
 * Opaque cursors: the list, the team and a position. Not signed (these routes get no instance
 * secret): an edited one only moves within the team's own list, as every statement is scoped by
 * team; a malformed one, or another team's, is a 400.
 */
function encodeCursor(teamId: number, op: Op, place: EmailListPlace): string {
  return Buffer.from(JSON.stringify({ l: LIST, t: teamId, o: op, a: place.at, i: place.id })).toString('base64url');
}

const CursorBody = z.object({
  l: z.literal(LIST),
  t: z.number(),
  o: z.enum(['<', '<=', '>', '>=']),
  a: z
    .string()
    .regex(AT)
    .refine((at) => !Number.isNaN(Date.parse(at))),
  i: z.string().regex(ID),
});

export function decodeCursor(teamId: number, cursor: string): EmailListPosition {
  let parsed: unknown = null;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    // answered below, as any other cursor that is not one of ours
  }
  const body = CursorBody.safeParse(parsed);
  if (!body.success || body.data.t !== teamId)
    throw badRequest('cursor: not a cursor of this list; pass back a nextCursor or prevCursor as it was given');
  return { op: body.data.o, at: body.data.a, id: body.data.i };
}

/** The page on the other side of a position that read nothing: the position's own email included. */
const OPPOSITE: Record<Op, Op> = { '<': '>=', '<=': '>', '>': '<=', '>=': '<' };

/**
 * The page a cursor names (the newest without one), newest first, with the cursors either side:
 * the list form's `{data, count, nextCursor, prevCursor, searchStoppedAt}`. `window`: the text
 * search's bound, SEARCH_WINDOW unless a test asks for less.
 */
export async function readCursorPage(
  db: Db,
  teamId: number,
  filter: EmailListFilter,
  options: { cursor: string | undefined; limit: number; fields: EmailListFields; window?: number },
) {
  const position = options.cursor === undefined ? null : decodeCursor(teamId, options.cursor);
  const read = (from: EmailListPosition | null) =>
    listEmailsByCursor(db, teamId, filter, { ...options, position: from });
  let older = !position?.op.startsWith('>');
  let start = position;
  let page = await read(position);
  // Reading newer reached the newest emails: the first page, whole, rather than the few left.
  if (!older && page.onward === null) {
    [older, start, page] = [true, null, await read(null)];
  }
  // Back the other way: from the page's first email, or from the start when it read none.
  const first = page.rows[0];
  const backward =
    start === null
      ? null
      : first
        ? encodeCursor(teamId, older ? '>' : '<', { at: first.position_at, id: first.id })
        : encodeCursor(teamId, OPPOSITE[start.op], start);
  const onward = page.onward && encodeCursor(teamId, older ? '<' : '>', page.onward);
  const rows = older ? page.rows : [...page.rows].reverse();
  return {
    data: rows.map(emailListView),
    count: rows.length,
    nextCursor: older ? onward : backward,
    prevCursor: older ? backward : onward,
    searchStoppedAt: page.searchStoppedAt?.toISOString() ?? null,
  };
}
