// A segment definition compiled to one SQL predicate over `contacts AS c`. Every value is a bound
// parameter of a `sql` fragment, never concatenated text; the database evaluates the whole
// definition in one statement, never row by row in JS. Semantics where the contract is silent are
// written down in README.md.
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import {
  NUMBER_LENGTH_MAX,
  NUMBER_PATTERN,
  type Condition,
  type Definition,
  type LeafCondition,
} from './definition.ts';
import type { Db } from '../db/handle.ts';

type Predicate = RawBuilder<SqlBool>;

interface CompileContext {
  teamId: number;
  /** The evaluation time (deps.clock), for in_last_days. */
  now: Date;
}

const DAY_MS = 86_400_000;
const TRUE: Predicate = sql<SqlBool>`true`;
const FALSE: Predicate = sql<SqlBool>`false`;

/** Escapes LIKE wildcards so that `%`, `_` and `\` in a value match themselves (ESCAPE '\'). */
function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (character) => `\\${character}`);
}

const text = (value: string | number) => sql`${String(value)}::text`;
const ilike = (column: RawBuilder<unknown>, pattern: string) =>
  sql<SqlBool>`(${column} ILIKE ${pattern}::text ESCAPE '\\')`;
// Present means a value with something other than blanks in it.
const isSet = (column: RawBuilder<unknown>) => sql<SqlBool>`(${column} IS NOT NULL AND btrim(${column}) <> '')`;
// `(SELECT f($n))` is an InitPlan: computed once per statement, where a parameter inside a generic
// (prepared) plan would be recomputed for every contact.
const once = (expression: RawBuilder<unknown>) => sql`(SELECT ${expression})`;
// Equal ignoring case: the same number of characters and equal once lower-cased. The length test
// comes first because it is cheap: lower() under a UTF-8 locale was most of a segment count's scan
// (bench/segment-count.ts), and most values differ in length from the one compared with.
const equalsIgnoringCase = (column: RawBuilder<unknown>, value: string | number) =>
  sql<SqlBool>`(char_length(${column}) = ${once(sql`char_length(${text(value)})`)} AND lower(${column}) = ${once(sql`lower(${text(value)})`)})`;
// not_equals is the exact negation of equals: a contact without the value matches.
const not = (predicate: Predicate) => sql<SqlBool>`(NOT coalesce(${predicate}, false))`;

type TextOp = 'equals' | 'not_equals' | 'contains' | 'ends_with' | 'is_set' | 'is_empty';

function textPredicate(column: RawBuilder<unknown>, op: TextOp, value: string | number | undefined): Predicate {
  const given = String(value ?? '');
  switch (op) {
    case 'equals':
      return equalsIgnoringCase(column, given);
    case 'not_equals':
      return not(equalsIgnoringCase(column, given));
    case 'contains':
      return ilike(column, `%${escapeLike(given)}%`);
    case 'ends_with':
      return ilike(column, `%${escapeLike(given)}`);
    case 'is_set':
      return isSet(column);
    case 'is_empty':
      return not(isSet(column));
  }
}

const comparison = { gt: sql`>`, gte: sql`>=`, lt: sql`<`, lte: sql`<=` } as const;

/** Numeric comparison that skips values that are not numbers: the pattern guards the cast (CASE keeps the order). */
function numericPredicate(column: RawBuilder<unknown>, op: keyof typeof comparison, value: string | number): Predicate {
  return sql<SqlBool>`(CASE WHEN length(${column}) <= ${NUMBER_LENGTH_MAX}::integer AND ${column} ~ ${NUMBER_PATTERN}::text THEN ${column}::numeric ${comparison[op]} ${once(sql`${text(value)}::numeric`)} ELSE false END)`;
}

/** The column of address_activity (0004_emails.sql) holding the latest event of each kind. */
const activityColumn = {
  received: 'last_received_at',
  opened: 'last_opened_at',
  clicked: 'last_clicked_at',
  bounced: 'last_bounced_at',
  complained: 'last_complained_at',
} as const;

/**
 * An email of this team sent to the contact's address had an event of this kind (since a time):
 * the address's latest such event, kept per (team, address) by a trigger on email_events, is set
 * (and at or after the time). One index probe per contact, or one index range hashed, instead of
 * the address's emails joined to their events.
 */
function hadEmailEvent(context: CompileContext, kind: keyof typeof activityColumn, since: Date | null): Predicate {
  const column = sql.ref(`a.${activityColumn[kind]}`);
  const when = since === null ? sql`${column} IS NOT NULL` : sql`${column} >= ${since}::timestamptz`;
  return sql<SqlBool>`EXISTS (SELECT 1 FROM address_activity a WHERE a.team_id = ${context.teamId}::integer AND a.address = c.email AND ${when})`;
}

/** The email_events statuses of each email_activity event (address_activity keeps the same ones). */
const activityStatuses = { received: ['SENT', 'DELIVERED'], opened: ['OPENED'], clicked: ['CLICKED'] } as const;

/**
 * The contact was a recipient of this campaign and its email had an event of this kind (since a
 * time): the campaign's recipient row by primary key, then the email's events by their index. Reads
 * the campaigns area's recipients, as the journey condition reads runs. A campaign of another book
 * has no recipient here (problems.ts refuses naming one), a deleted one none at all.
 */
function hadCampaignEvent(
  context: CompileContext,
  campaignId: string,
  kind: keyof typeof activityStatuses,
  since: Date | null,
): Predicate {
  const statuses = [...activityStatuses[kind]];
  const when = since === null ? sql`true` : sql`e.created_at >= ${since}::timestamptz`;
  return sql<SqlBool>`EXISTS (SELECT 1 FROM campaign_recipients r JOIN email_events e ON e.email_id = r.email_id WHERE r.campaign_id = ${campaignId}::text AND r.contact_id = c.id AND e.team_id = ${context.teamId}::integer AND e.status = ANY (${statuses}::text[]) AND ${when})`;
}

function leafPredicate(condition: LeafCondition, context: CompileContext): Predicate {
  switch (condition.type) {
    case 'email':
      return textPredicate(sql.ref('c.email'), condition.op, condition.value);
    case 'first_name':
      return textPredicate(sql.ref('c.first_name'), condition.op, condition.value);
    case 'last_name':
      return textPredicate(sql.ref('c.last_name'), condition.op, condition.value);
    case 'subscribed': {
      // An unconfirmed double opt-in contact (confirmed_at NULL) never counts as subscribed.
      const subscribed = sql<SqlBool>`(c.subscribed AND c.confirmed_at IS NOT NULL)`;
      return condition.value ? subscribed : sql<SqlBool>`(NOT ${subscribed})`;
    }
    case 'added': {
      if (condition.op === 'in_last_days') {
        const since = new Date(context.now.getTime() - Number(condition.value) * DAY_MS);
        return sql<SqlBool>`(c.created_at >= ${since}::timestamptz)`;
      }
      const at = new Date(String(condition.value)); // a date alone is midnight UTC
      return condition.op === 'before'
        ? sql<SqlBool>`(c.created_at < ${at}::timestamptz)`
        : sql<SqlBool>`(c.created_at > ${at}::timestamptz)`;
    }
    case 'property': {
      const column = sql`(c.properties ->> ${condition.key}::text)`;
      if (condition.op in comparison) {
        return numericPredicate(column, condition.op as keyof typeof comparison, condition.value ?? '');
      }
      return textPredicate(column, condition.op as TextOp, condition.value);
    }
    case 'email_activity': {
      const since =
        condition.op === 'in_last_days' ? new Date(context.now.getTime() - (condition.days ?? 0) * DAY_MS) : null;
      const had =
        condition.campaignId === undefined
          ? hadEmailEvent(context, condition.event, since)
          : hadCampaignEvent(context, condition.campaignId, condition.event, since);
      return condition.op === 'never' ? sql<SqlBool>`(NOT ${had})` : had;
    }
    case 'email_problem': {
      const had = hadEmailEvent(context, condition.event, null);
      return condition.op === 'never' ? sql<SqlBool>`(NOT ${had})` : had;
    }
    case 'journey': {
      // Reads the journeys area's runs: is_in = an ACTIVE run, completed / exited = a run that ended
      // so, not_in = no ACTIVE run. A deleted journey has no runs: nobody is in it.
      const status = condition.op === 'completed' ? 'COMPLETED' : condition.op === 'exited' ? 'EXITED' : 'ACTIVE';
      const run = sql<SqlBool>`EXISTS (SELECT 1 FROM journey_runs r WHERE r.contact_id = c.id AND r.journey_id = ${condition.journeyId}::text AND r.team_id = ${context.teamId}::integer AND r.status = ${status}::text)`;
      return condition.op === 'not_in' ? sql<SqlBool>`(NOT ${run})` : run;
    }
  }
}

function combine(match: 'all' | 'any', predicates: Predicate[]): Predicate {
  if (predicates.length === 0) return match === 'all' ? TRUE : FALSE;
  // coalesce: a NULL (a missing value) is "does not match", never "unknown".
  const parts = predicates.map((predicate) => sql`coalesce(${predicate}, false)`);
  return sql<SqlBool>`(${sql.join(parts, match === 'all' ? sql` AND ` : sql` OR `)})`;
}

function conditionPredicate(condition: Condition, context: CompileContext): Predicate {
  if (condition.type === 'group') {
    return combine(
      condition.match,
      condition.conditions.map((member) => leafPredicate(member, context)),
    );
  }
  return leafPredicate(condition, context);
}

/**
 * The contacts of one book that a definition matches, as one query (`contacts AS c`). With
 * `matchesNothing` (the segment has problems) the query stays valid and returns no row.
 */
export function matchingContacts(
  db: Db,
  teamId: number,
  contactBookId: string,
  definition: Definition,
  now: Date,
  matchesNothing = false,
) {
  let query = db
    .selectFrom('contacts as c')
    .where('c.team_id', '=', teamId)
    .where('c.contact_book_id', '=', contactBookId);
  for (const predicate of matchesNothing ? [FALSE] : whereConjuncts(definition, { teamId, now }))
    query = query.where(predicate);
  return query;
}

/**
 * The definition as the conjuncts of a WHERE. With `match: all`, each top-level condition is its own
 * conjunct, not wrapped in coalesce: the planner then sees them one by one (an `EXISTS` becomes a
 * semi-join that can use the email indexes of 0004_emails.sql instead of a subplan run per contact).
 * The meaning is the same: WHERE keeps a row only when every conjunct is true, so a NULL excludes it
 * exactly as `coalesce(…, false)` does. Otherwise the whole definition is one (never NULL) conjunct.
 */
function whereConjuncts(definition: Definition, context: CompileContext): Predicate[] {
  if (definition.match === 'all' && definition.conditions.length > 0) {
    return definition.conditions.map((condition) => conditionPredicate(condition, context));
  }
  return [
    combine(
      definition.match,
      definition.conditions.map((condition) => conditionPredicate(condition, context)),
    ),
  ];
}

/** How many contacts match: one statement. */
export async function countMatching(
  db: Db,
  teamId: number,
  contactBookId: string,
  definition: Definition,
  now: Date,
  matchesNothing = false,
): Promise<number> {
  if (matchesNothing) return 0;
  const row = await matchingContacts(db, teamId, contactBookId, definition, now)
    .select((eb) => eb.fn.countAll<string | number | bigint>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
