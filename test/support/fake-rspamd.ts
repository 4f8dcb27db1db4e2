// A fake rspamd on loopback, speaking its HTTP API: POST /checkv2 with the message as the body and
// the envelope in the IP, From, Rcpt and Helo headers; 200 with `{action, score, required_score,
// symbols}`. The action is the scripted behaviour's, or by content: a message containing
// "rspamd-spam" is `reject`, anything else `no action`.
//
//   const rspamd = await FakeRspamd.start();   // HERALD_RSPAMD_URL = rspamd.url
//   rspamd.enqueue({ action: 'greylist' }, { status: 500 }, 'hang');
import { FakeProviderServer, type Answer, type RecordedRequest } from './fake-provider-server.ts';

export type RspamdBehaviour = 'by-content' | { action: string; score?: number } | { status: number } | 'hang';

export class FakeRspamd extends FakeProviderServer<RspamdBehaviour> {
  static async start(): Promise<FakeRspamd> {
    return new FakeRspamd(await FakeProviderServer.listen(), 'by-content');
  }

  protected answer(request: RecordedRequest, behaviour: RspamdBehaviour): Answer | null {
    if (behaviour === 'hang') return null;
    if (request.method !== 'POST' || request.path !== '/checkv2') return { status: 404, body: '{}' };
    if (typeof behaviour === 'object' && 'status' in behaviour) return { status: behaviour.status, body: 'error' };
    const chosen =
      behaviour === 'by-content'
        ? request.body.includes('rspamd-spam')
          ? { action: 'reject', score: 20 }
          : { action: 'no action', score: 0.5 }
        : (behaviour as { action: string; score?: number });
    const symbols = chosen.action === 'no action' ? { ARC_NA: { score: 0 } } : { FAKE_SPAM: { score: 20 } };
    return {
      status: 200,
      body: JSON.stringify({
        is_skipped: false,
        score: chosen.score ?? 10,
        required_score: 15,
        action: chosen.action,
        symbols,
        'message-id': 'fake',
      }),
    };
  }
}
