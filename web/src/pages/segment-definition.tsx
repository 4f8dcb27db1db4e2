// The segment definition the API takes (version 1, match, conditions; groups one level deep) and the
// editable draft the builder works on: every input kept as the text typed, turned into the API's
// JSON only when sent, so the API's own 400 names what is wrong and the builder shows it in place.
import type { paths } from '../api/schema';

type CreateBody =
  paths['/api/v1/contactBooks/{contactBookId}/segments']['post']['requestBody']['content']['application/json'];
export type Definition = CreateBody['definition'];
export type Condition = Definition['conditions'][number];
type Leaf = Exclude<Condition, { type: 'group' }>;
export type LeafType = Leaf['type'];
export type Match = Definition['match'];

/** Contract Limits: 20 conditions, counting those inside groups. */
export const CONDITIONS_MAX = 20;

export interface LeafDraft {
  id: number;
  type: LeafType;
  op: string;
  /** Text, date, number of days or "true"/"false", as the field and operator want. */
  value: string;
  key: string;
  event: string;
  campaignId: string;
  journeyId: string;
}

export interface GroupDraft {
  id: number;
  type: 'group';
  match: Match;
  conditions: LeafDraft[];
}

export type ConditionDraft = LeafDraft | GroupDraft;

export interface DefinitionDraft {
  match: Match;
  conditions: ConditionDraft[];
}

export const fieldLabels: Record<LeafType, string> = {
  email: 'Email',
  first_name: 'First name',
  last_name: 'Last name',
  subscribed: 'Subscribed',
  added: 'Added',
  property: 'Property',
  email_activity: 'Email activity',
  email_problem: 'Email problem',
  journey: 'Journey',
};

const text = { equals: 'is', not_equals: 'is not', contains: 'contains' };
const presence = { is_set: 'is set', is_empty: 'is empty' };
export const operators: Record<LeafType, Record<string, string>> = {
  email: { ...text, ends_with: 'ends with' },
  first_name: { ...text, ...presence },
  last_name: { ...text, ...presence },
  subscribed: { is: 'is' },
  added: { before: 'before', after: 'after', in_last_days: 'in the last (days)' },
  property: { ...text, ...presence, gt: 'greater than', gte: 'at least', lt: 'less than', lte: 'at most' },
  email_activity: { ever: 'ever', never: 'never', in_last_days: 'in the last (days)' },
  email_problem: { ever: 'ever', never: 'never' },
  journey: { is_in: 'is in', completed: 'completed', exited: 'exited', not_in: 'is not in' },
};

export const events: Partial<Record<LeafType, Record<string, string>>> = {
  email_activity: { opened: 'opened', clicked: 'clicked', received: 'received' },
  email_problem: { bounced: 'bounced', complained: 'complained' },
};

const presenceOps = new Set(['is_set', 'is_empty']);
const numericOps = new Set(['gt', 'gte', 'lt', 'lte']);

/** Whether this condition takes a typed value (text, number, date or days). */
export function takesValue(c: LeafDraft): boolean {
  if (c.type === 'subscribed' || c.type === 'email_problem' || c.type === 'journey') return false;
  if (c.type === 'email_activity') return c.op === 'in_last_days';
  return !presenceOps.has(c.op);
}

let nextId = 1;
export const draftId = () => nextId++;

export function newLeaf(type: LeafType, variables: readonly string[]): LeafDraft {
  return {
    id: draftId(),
    type,
    op: Object.keys(operators[type])[0]!,
    value: type === 'subscribed' ? 'true' : type === 'email_activity' ? '30' : '',
    key: variables[0] ?? '',
    event: Object.keys(events[type] ?? {})[0] ?? '',
    campaignId: '',
    journeyId: '',
  };
}

export const newGroup = (variables: readonly string[]): GroupDraft => ({
  id: draftId(),
  type: 'group',
  match: 'any',
  conditions: [newLeaf('email', variables)],
});

/** "12" → 12 where the API wants a number; anything else is sent as typed for the API to judge. */
const numberOr = (value: string): number | string => (/^\s*-?\d+(\.\d+)?\s*$/.test(value) ? Number(value) : value);

function leafJson(c: LeafDraft): Leaf {
  const { type, op } = c;
  const json: Record<string, unknown> = { type };
  if (type === 'property') json.key = c.key;
  if (type === 'email_activity' || type === 'email_problem') json.event = c.event;
  json.op = op;
  if (type === 'subscribed') json.value = c.value === 'true';
  else if (type === 'journey') json.journeyId = c.journeyId;
  else if (type === 'email_activity') {
    if (op === 'in_last_days') json.days = numberOr(c.value);
    if (c.campaignId.trim() !== '') json.campaignId = c.campaignId.trim();
  } else if (type === 'added') json.value = op === 'in_last_days' ? numberOr(c.value) : c.value;
  else if (type === 'property' && numericOps.has(op)) json.value = numberOr(c.value);
  else if (takesValue(c)) json.value = c.value;
  return json as Leaf;
}

export function toDefinition(draft: DefinitionDraft): Definition {
  return {
    version: 1,
    match: draft.match,
    conditions: draft.conditions.map((c) =>
      c.type === 'group' ? { type: 'group', match: c.match, conditions: c.conditions.map(leafJson) } : leafJson(c),
    ) as Condition[],
  };
}

function leafDraft(c: Leaf): LeafDraft {
  const any = c as Record<string, unknown>;
  const value = c.type === 'email_activity' ? any.days : any.value;
  return {
    id: draftId(),
    type: c.type,
    op: c.op,
    value: value === undefined ? '' : String(value),
    key: typeof any.key === 'string' ? any.key : '',
    event: typeof any.event === 'string' ? any.event : '',
    campaignId: typeof any.campaignId === 'string' ? any.campaignId : '',
    journeyId: typeof any.journeyId === 'string' ? any.journeyId : '',
  };
}

export function toDraft(definition: Definition): DefinitionDraft {
  return {
    match: definition.match,
    conditions: definition.conditions.map((c) =>
      c.type === 'group'
        ? { id: draftId(), type: 'group', match: c.match, conditions: c.conditions.map((l) => leafDraft(l as Leaf)) }
        : leafDraft(c),
    ),
  };
}

export const countConditions = (draft: DefinitionDraft) =>
  draft.conditions.reduce((n, c) => n + (c.type === 'group' ? c.conditions.length : 1), 0);

/** JSON with keys sorted: the stored definition may come back with its keys in another order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(value);
}

export const sameDefinition = (a: Definition, b: Definition) => canonical(a) === canonical(b);

/** An API 400 split by where it points: a condition ("2" or "2.1", 1-based as shown), a field, or the whole. */
export interface PlacedError {
  condition: string | null;
  field: string | null;
  message: string;
}

export function placeErrors(message: string): PlacedError[] {
  return message.split(/; (?=[A-Za-z][\w.]*: )/).map((part) => {
    const match = /^([A-Za-z][\w.]*):\s*(.+)$/s.exec(part);
    if (!match) return { condition: null, field: null, message: part };
    const path = match[1]!.split('.');
    if (path[0] !== 'definition') return { condition: null, field: path[0]!, message: match[2]! };
    const at = /^definition\.conditions\.(\d+)(?:\.conditions\.(\d+))?(?:\.(\w+))?/.exec(match[1]!);
    if (!at) return { condition: null, field: 'definition', message: `${match[1]}: ${match[2]}` };
    const condition = at[2] === undefined ? `${Number(at[1]) + 1}` : `${Number(at[1]) + 1}.${Number(at[2]) + 1}`;
    return { condition, field: at[3] ?? null, message: match[2]! };
  });
}
