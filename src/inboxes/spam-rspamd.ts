// The spam verdict from rspamd's HTTP API (HERALD_RSPAMD_URL): POST /checkv2 with the message as
// the body and the envelope in headers (IP, From, Rcpt, Helo), answered with JSON whose `action`
// is what rspamd advises. `reject`, `add header` and `rewrite subject` are `spam`; `soft reject`
// and `greylist` are `suspicious`; `no action` is `clean`. An rspamd that cannot be reached, or
// answers something else, gives way to the built-in checks (spam-local.ts) so mail keeps flowing.
import { lazy } from '../platform/lazy.ts';
import type { Connection, SpamDecision, SpamVerdict } from './spam-local.ts';

const TIMEOUT_MS = 10_000;

/** undici, read at the first message checked. */
const undici = lazy(() => import('undici'));

const VERDICT_OF_ACTION: Record<string, SpamVerdict> = {
  reject: 'spam',
  'add header': 'spam',
  'rewrite subject': 'spam',
  'soft reject': 'suspicious',
  greylist: 'suspicious',
  'no action': 'clean',
};

interface RspamdAnswer {
  action?: unknown;
  score?: unknown;
  required_score?: unknown;
  symbols?: Record<string, unknown>;
}

/** rspamd's verdict; throws when rspamd cannot be reached or its answer is not one it documents. */
export async function rspamdVerdict(
  baseUrl: string,
  raw: Buffer,
  connection: Connection,
  recipients: string[],
): Promise<SpamDecision> {
  const headers: Record<string, string | string[]> = {
    'content-type': 'message/rfc822',
    ip: connection.remoteAddress,
  };
  if (connection.mailFrom !== '') headers.from = connection.mailFrom;
  if (connection.helo !== undefined) headers.helo = connection.helo;
  if (recipients.length > 0) headers.rcpt = recipients;
  const { request } = await undici();
  const response = await request(`${baseUrl}/checkv2`, {
    method: 'POST',
    headers,
    body: raw,
    headersTimeout: TIMEOUT_MS,
    bodyTimeout: TIMEOUT_MS,
  });
  const text = await response.body.text();
  if (response.statusCode !== 200) throw new Error(`rspamd answered HTTP ${response.statusCode}`);
  const answer = JSON.parse(text) as RspamdAnswer;
  const verdict = typeof answer.action === 'string' ? VERDICT_OF_ACTION[answer.action] : undefined;
  if (verdict === undefined) throw new Error(`rspamd answered an unknown action: ${String(answer.action)}`);
  return {
    verdict,
    details: {
      engine: 'rspamd',
      action: answer.action,
      score: answer.score ?? null,
      requiredScore: answer.required_score ?? null,
      symbols: Object.keys(answer.symbols ?? {}),
    },
  };
}
