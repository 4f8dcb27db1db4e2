// The status precedence table: every event joins the history, the status moves only where allowed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmailStatus } from '../../src/db/schema.ts';
import { mayBecome, recordEmailEvent, STATUS_MAY_BECOME } from '../../src/emails/index.ts';
import { emails, startEmailHarness, type EmailHarness } from './support.ts';

let h: EmailHarness;
beforeAll(async () => {
  h = await startEmailHarness();
});
afterAll(async () => h.close());

describe('the precedence table', () => {
  it('has a row for every status', () => {
    expect(Object.keys(STATUS_MAY_BECOME).sort()).toEqual(
      [
        'BOUNCED',
        'CANCELLED',
        'CLICKED',
        'COMPLAINED',
        'DELIVERED',
        'DELIVERY_DELAYED',
        'FAILED',
        'OPENED',
        'QUEUED',
        'REJECTED',
        'RENDERING_FAILURE',
        'SCHEDULED',
        'SENT',
        'SUPPRESSED',
      ].sort(),
    );
  });

  it.each<[EmailStatus, EmailStatus, boolean]>([
    ['QUEUED', 'SENT', true],
    ['SENT', 'DELIVERED', true],
    ['SENT', 'DELIVERY_DELAYED', true],
    ['DELIVERY_DELAYED', 'DELIVERED', true],
    ['DELIVERED', 'DELIVERY_DELAYED', false],
    ['DELIVERED', 'OPENED', true],
    ['OPENED', 'DELIVERED', false],
    ['CLICKED', 'OPENED', false],
    ['DELIVERED', 'BOUNCED', true],
    ['BOUNCED', 'DELIVERED', false],
    ['BOUNCED', 'OPENED', false],
    ['BOUNCED', 'COMPLAINED', true],
    ['CLICKED', 'COMPLAINED', true],
    ['COMPLAINED', 'BOUNCED', false],
    ['CANCELLED', 'SENT', false],
    ['FAILED', 'SENT', false],
    ['SUPPRESSED', 'DELIVERED', false],
  ])('%s then %s: moves = %s', (current, next, expected) => {
    expect(mayBecome(current, next)).toBe(expected);
  });
});

describe('recording late events', () => {
  it('a late DELIVERED never hides a BOUNCED, and every event stays in the history', async () => {
    const team = await h.team();
    const api = emails(h.app, team.key);
    const id = await api.sent({ from: team.from(), to: 'late@example.com', subject: 'S', text: 'x' });
    const db = h.t.deps.db;
    const now = h.t.clock.now();
    await db.updateTable('emails').set({ status: 'SENT' }).where('id', '=', id).execute();
    expect(await recordEmailEvent(db, team.id, id, 'BOUNCED', { recipient: 'late@example.com' }, now)).toEqual({
      found: true,
      status: 'BOUNCED',
    });
    expect(await recordEmailEvent(db, team.id, id, 'DELIVERED', null, now)).toEqual({ found: true, status: 'BOUNCED' });
    const email = (await api.get(id)).json();
    expect(email.emailEvents.map((e: { status: string }) => e.status)).toEqual(['QUEUED', 'BOUNCED', 'DELIVERED']);
    const listed = (await api.list()).json();
    expect(listed.data.find((e: { id: string }) => e.id === id).latestStatus).toBe('BOUNCED');
  });

  it('progress moves forward only, and another team cannot record on the email', async () => {
    const team = await h.team();
    const other = await h.team();
    const api = emails(h.app, team.key);
    const id = await api.sent({ from: team.from(), to: 'fwd@example.com', subject: 'S', text: 'x' });
    const db = h.t.deps.db;
    const now = h.t.clock.now();
    await db.updateTable('emails').set({ status: 'SENT' }).where('id', '=', id).execute();
    expect((await recordEmailEvent(db, team.id, id, 'OPENED', null, now)).status).toBe('OPENED');
    expect((await recordEmailEvent(db, team.id, id, 'DELIVERED', null, now)).status).toBe('OPENED');
    expect(await recordEmailEvent(db, other.id, id, 'COMPLAINED', null, now)).toEqual({ found: false, status: null });
    const email = (await api.get(id)).json();
    expect(email.emailEvents.map((e: { status: string }) => e.status)).toEqual(['QUEUED', 'OPENED', 'DELIVERED']);
  });
});
