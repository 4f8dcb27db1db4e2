// useSend users switch without rewriting: the published `usesend-js` SDK (a devDependency) drives its
// seven campaign calls against Herald listening on a port, unchanged: create, getAll, get, schedule,
// pause, resume, delete, and an error as the SDK hands it back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmailHarness, type EmailHarness } from '../emails/support.ts';
import { BODY, campaignTeam, type CampaignTeam } from './support.ts';

type Answer = Promise<{ data: any; error: unknown }>; // eslint-disable-line @typescript-eslint/no-explicit-any
interface UseSendCampaigns {
  create(payload: Record<string, unknown>): Answer;
  getAll(query?: { page?: string; status?: string; search?: string }): Answer;
  get(id: string): Answer;
  schedule(id: string, payload: Record<string, unknown>): Answer;
  pause(id: string): Answer;
  resume(id: string): Answer;
  delete(id: string): Answer;
}
interface UseSendModule {
  UseSend: new (apiKey: string, url: string) => { campaigns: UseSendCampaigns };
}

const PACKAGE: string = 'usesend-js';

let h: EmailHarness, team: CampaignTeam, campaigns: UseSendCampaigns;
beforeAll(async () => {
  h = await startEmailHarness();
  team = await campaignTeam(h);
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = h.app.server.address() as { port: number };
  const sdk = (await import(PACKAGE)) as UseSendModule;
  campaigns = new sdk.UseSend(team.key, `http://127.0.0.1:${port}`).campaigns;
}, 120_000);
afterAll(() => h.close());

describe('usesend-js campaigns', () => {
  it('runs the SDK calls unchanged', async () => {
    const created = await campaigns.create({
      name: 'SDK launch',
      from: team.from('news'),
      subject: 'Hello from the SDK',
      contactBookId: team.bookId,
      html: BODY,
      replyTo: 'desk@example.test',
      batchSize: 250,
    });
    expect(created.error).toBeNull();
    expect(created.data).toMatchObject({
      name: 'SDK launch',
      status: 'DRAFT',
      batchSize: 250,
      replyTo: ['desk@example.test'],
    });
    const id = created.data.id as string;

    const all = await campaigns.getAll({ page: '1', status: 'DRAFT', search: 'sdk launch' });
    expect(all.error).toBeNull();
    expect(all.data).toMatchObject({ totalPage: 1, campaigns: [{ id, name: 'SDK launch', total: 0 }] });
    expect((await campaigns.get(id)).data).toMatchObject({ id, subject: 'Hello from the SDK' });

    const at = new Date(h.t.clock.now().getTime() + 86_400_000).toISOString();
    expect(await campaigns.schedule(id, { scheduledAt: at, batchSize: 100 })).toEqual({
      data: { success: true },
      error: null,
    });
    expect((await campaigns.get(id)).data).toMatchObject({ status: 'SCHEDULED', scheduledAt: at, batchSize: 100 });
    expect(await campaigns.pause(id)).toEqual({ data: { success: true }, error: null });
    expect((await campaigns.get(id)).data.status).toBe('PAUSED');
    expect(await campaigns.resume(id)).toEqual({ data: { success: true }, error: null });
    expect((await campaigns.get(id)).data.status).toBe('SCHEDULED');
    const deleted = await campaigns.delete(id);
    expect(deleted.error).toBeNull();
    expect(deleted.data).toMatchObject({ id });
    const gone = await campaigns.get(id);
    expect(gone.data).toBeNull();
    // The SDK hands back the whole error body when it carries a code, as it does with useSend's API.
    expect(gone.error).toMatchObject({ error: { code: 'NOT_FOUND' } });
  });

  it('answers a refusal as an error the SDK hands back', async () => {
    const refused = await campaigns.create({
      name: 'No way out',
      from: team.from('news'),
      subject: 'S',
      contactBookId: team.bookId,
      html: '<p>no link</p>',
      sendNow: true,
    });
    expect(refused.data).toBeNull();
    expect(refused.error).toMatchObject({
      error: { code: 'BAD_REQUEST', message: expect.stringContaining('unsubscribe link') },
    });
  });

  it("sends the editor's document as content and answers it with the rendered html", async () => {
    const content = JSON.stringify({
      type: 'doc',
      content: [
        {
          type: 'paragraph',
          content: [
            { type: 'text', text: 'Hi {{firstName}}, ' },
            {
              type: 'text',
              text: 'unsubscribe',
              marks: [{ type: 'link', attrs: { href: '{{usesend_unsubscribe_url}}' } }],
            },
          ],
        },
      ],
    });
    const created = await campaigns.create({
      name: 'From the editor',
      from: team.from('news'),
      subject: 'S',
      contactBookId: team.bookId,
      content,
      sendNow: true,
    });
    expect(created.error).toBeNull();
    expect(created.data).toMatchObject({ status: 'SCHEDULED', content });
    expect(created.data.html).toContain('Hi {{firstName}}, <a href="{{usesend_unsubscribe_url}}"');
  });
});
