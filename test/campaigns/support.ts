// Campaign tests' helpers: a team with a verified domain, a contact book and a marketing body, and
// requests as that team.
import { expect } from 'vitest';
import type { EmailHarness } from '../emails/support.ts';
import { client, type Json } from '../journeys/support.ts';

export type { Json };

export const BODY = '<p>Hello {{firstName}}</p><p><a href="{{unsubscribeUrl}}">Unsubscribe</a></p>';

/** On the pro plan unless asked: the free plan's 100 emails a day would stop the larger campaigns. */
export async function campaignTeam(h: EmailHarness, plan: 'free' | 'pro' = 'pro') {
  const team = await h.team({ plan });
  const call = client(h, team.key);
  const book = await call('POST', '/v1/contactBooks', { name: 'Readers' });
  expect(book.status, JSON.stringify(book.body)).toBe(200);
  const create = async (fields: Json = {}) =>
    call('POST', '/v1/campaigns', {
      name: 'November news',
      from: team.from('news'),
      subject: 'What is new',
      contactBookId: book.body.id,
      html: BODY,
      ...fields,
    });
  return { ...team, call, bookId: book.body.id as string, create };
}
export type CampaignTeam = Awaited<ReturnType<typeof campaignTeam>>;
