// What a journey's fields name must exist for the team (400 naming the field): the contact book,
// the segment (in that book), each EMAIL step's template and from address on a verified domain.
import type { Db } from '../db/handle.ts';
import { canSendFrom } from '../domains/index.ts';
import { domainOf, parseAddress } from '../emails/index.ts';
import { badRequest } from '../platform/errors.ts';
import { getTemplateForSend } from '../templates/index.ts';
import { bookFacts } from '../contacts/index.ts';
import { bookOfSegment } from '../segments/index.ts';
import type { JourneyValues } from './queries.ts';

export async function checkReferences(db: Db, teamId: number, values: JourneyValues): Promise<void> {
  if (values.contactBookId !== null && !(await bookFacts(db, teamId, values.contactBookId)))
    throw badRequest(`contactBookId: the team has no contact book ${values.contactBookId}`);
  if (values.segmentId !== null) {
    const book = await bookOfSegment(db, teamId, values.segmentId);
    if (book === undefined) throw badRequest(`segmentId: the team has no segment ${values.segmentId}`);
    if (book !== values.contactBookId)
      throw badRequest(
        `segmentId: segment ${values.segmentId} is not a segment of contact book ${values.contactBookId}`,
      );
  }
  if (values.exitWhenLeavesSegment && values.segmentId === null)
    throw badRequest('exitWhenLeavesSegment: needs a segmentId to leave');
  for (const [index, step] of values.steps.entries()) {
    if (step.type !== 'EMAIL') continue;
    if (!(await getTemplateForSend(db, teamId, step.templateId)))
      throw badRequest(`steps[${index}].templateId: the team has no template ${step.templateId}`);
    const from = parseAddress(step.from);
    if (from === null) throw badRequest(`steps[${index}].from: must be an email address, or \`Name <address>\``);
    const domain = domainOf(from.address);
    if (!(await canSendFrom(db, teamId, domain)))
      throw badRequest(`steps[${index}].from: ${domain} is not a verified sending domain of the team`);
  }
}
