// Why a stored segment matches nothing (contract: Segment.problems), worked out at read time from
// its definition and its book as they are now, so a change elsewhere shows up at once.
import type { Db } from '../db/handle.ts';
import { ApiError } from '../platform/errors.ts';
import { leavesOf, type Definition } from './definition.ts';
import { campaignBooks, journeysOfTeam } from './queries.ts';

/** What the segment may name, as it is now. */
interface SegmentReferences {
  variables: readonly string[];
  journeyExists(journeyId: string): boolean;
  campaignExists(campaignId: string): boolean;
}

/** `campaigns`: the campaigns the definition names that still exist and were sent to this book. */
export function referencesOfBook(variables: readonly string[], campaigns: ReadonlySet<string>): SegmentReferences {
  return {
    variables,
    // A journey condition reads runs (compile.ts): a deleted journey simply has none, so it is no
    // problem. A deleted campaign is one: `never` would match the whole book.
    journeyExists: () => true,
    campaignExists: (campaignId) => campaigns.has(campaignId),
  };
}

/** Property keys the definition uses that are not variables of the book, each once, in order. */
function unknownPropertyKeys(definition: Definition, variables: readonly string[]): string[] {
  const known = new Set(variables);
  const keys = leavesOf(definition).flatMap((condition) =>
    condition.type === 'property' && !known.has(condition.key) ? [condition.key] : [],
  );
  return [...new Set(keys)];
}

export function segmentProblems(definition: Definition, references: SegmentReferences): string[] {
  const problems = unknownPropertyKeys(definition, references.variables).map(
    (key) => `property "${key}" is no longer a variable of the contact book`,
  );
  const seen = new Set<string>();
  for (const condition of leavesOf(definition)) {
    if (
      condition.type === 'journey' &&
      !references.journeyExists(condition.journeyId) &&
      !seen.has(`j:${condition.journeyId}`)
    ) {
      seen.add(`j:${condition.journeyId}`);
      problems.push(`journey "${condition.journeyId}" no longer exists`);
    }
    if (
      condition.type === 'email_activity' &&
      condition.campaignId !== undefined &&
      !references.campaignExists(condition.campaignId) &&
      !seen.has(`c:${condition.campaignId}`)
    ) {
      seen.add(`c:${condition.campaignId}`);
      problems.push(`campaign "${condition.campaignId}" no longer exists`);
    }
  }
  return problems;
}

/** Create and update: a property condition must name a variable of the book (400 naming the key). */
export function assertKeysAreVariables(definition: Definition, variables: readonly string[]): void {
  const unknown = unknownPropertyKeys(definition, variables);
  if (unknown.length > 0) {
    const list = unknown.map((key) => `"${key}"`).join(', ');
    throw new ApiError(
      400,
      'BAD_REQUEST',
      `definition: property ${list} is not a variable of the contact book (variables: ${variables.join(', ') || 'none'})`,
    );
  }
}

const journeyIdsOf = (definition: Definition) =>
  new Set(leavesOf(definition).flatMap((condition) => (condition.type === 'journey' ? [condition.journeyId] : [])));

/**
 * Create and update: a journey condition must name a journey of the team (contract: 400 for a
 * definition that names something the team does not have; another team's journey answers as a
 * missing one). Ids the stored definition already named are not asked again: a journey deleted
 * since is no problem (nobody is in it), so sending the definition back is not refused.
 */
export async function assertJourneysOfTeam(
  db: Db,
  teamId: number,
  definition: Definition,
  stored?: Definition,
): Promise<void> {
  const before = stored ? journeyIdsOf(stored) : new Set<string>();
  const named = [...journeyIdsOf(definition)].filter((id) => !before.has(id));
  const found = await journeysOfTeam(db, teamId, named);
  const unknown = named.filter((id) => !found.has(id));
  if (unknown.length > 0) {
    const list = unknown.map((id) => `"${id}"`).join(', ');
    throw new ApiError(400, 'BAD_REQUEST', `definition: journey ${list} is not a journey of the team`);
  }
}

/** The campaigns an email_activity condition names, each once. */
export const campaignIdsOf = (definition: Definition) =>
  new Set(
    leavesOf(definition).flatMap((condition) =>
      condition.type === 'email_activity' && condition.campaignId !== undefined ? [condition.campaignId] : [],
    ),
  );

/**
 * Create and update: an email_activity condition's campaign must be a campaign of the team sent to
 * this book (its recipients are this book's contacts). Ids the stored definition already named are
 * not asked again, as for journeys: the problems say when such a campaign is gone.
 */
export async function assertCampaignsOfBook(
  db: Db,
  teamId: number,
  contactBookId: string,
  definition: Definition,
  stored?: Definition,
): Promise<void> {
  const before = stored ? campaignIdsOf(stored) : new Set<string>();
  const named = [...campaignIdsOf(definition)].filter((id) => !before.has(id));
  const books = await campaignBooks(db, teamId, named);
  for (const id of named) {
    const book = books.get(id);
    if (book === undefined)
      throw new ApiError(400, 'BAD_REQUEST', `definition: campaign "${id}" is not a campaign of the team`);
    if (book !== contactBookId)
      throw new ApiError(
        400,
        'BAD_REQUEST',
        `definition: campaign "${id}" is sent to contact book ${book}, not to this segment's book ${contactBookId}`,
      );
  }
}

/**
 * Everything create, update and preview check of a definition against its book, in one place:
 * property keys, journeys and campaigns. `stored`: an update's current definition (its ids are not
 * asked again).
 */
export async function assertDefinitionOfBook(
  db: Db,
  teamId: number,
  book: { id: string; variables: readonly string[] },
  definition: Definition,
  stored?: Definition,
): Promise<void> {
  assertKeysAreVariables(definition, book.variables);
  await assertJourneysOfTeam(db, teamId, definition, stored);
  await assertCampaignsOfBook(db, teamId, book.id, definition, stored);
}
