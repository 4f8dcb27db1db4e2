// Tracking tokens: what they carry comes back only with the right key; any edit, a token of the other
// kind, another purpose's key or a forged tag is refused.
import { describe, expect, it } from 'vitest';
import { Secrets } from '../../src/platform/crypto.ts';
import {
  clickToken,
  clickUrl,
  openToken,
  openUrl,
  readClickToken,
  readOpenToken,
  TRACKING_TOKEN_MAX_LENGTH,
} from '../../src/tracking/tokens.ts';

const secrets = new Secrets('tracking-test-secret-0123456789-0123456789');
const email = { teamId: 7, emailId: 'em_01jtest', recipient: 'Ada@Example.test' };
const link = { ...email, link: 'https://example.com/a?b=1&c=2' };

/** The token with one character of its payload changed. */
function flipPayload(token: string): string {
  const [payload, tag] = token.split('.') as [string, string];
  const json = Buffer.from(payload, 'base64url').toString('utf8');
  return `${Buffer.from(json.replace('example.com', 'evil.example'), 'utf8').toString('base64url')}.${tag}`;
}

describe('tracking tokens', () => {
  it('carry team, email, lower-cased recipient and link', () => {
    expect(readOpenToken(secrets, openToken(secrets, email))).toEqual({ ...email, recipient: 'ada@example.test' });
    expect(readClickToken(secrets, clickToken(secrets, link))).toEqual({ ...link, recipient: 'ada@example.test' });
    expect(readOpenToken(secrets, openToken(secrets, { ...email, recipient: null }))).toEqual({
      ...email,
      recipient: null,
    });
  });

  it('are URL-safe and live under the public URL', () => {
    expect(openUrl(secrets, 'https://h.test', email)).toMatch(
      /^https:\/\/h\.test\/t\/o\/[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/,
    );
    expect(clickUrl(secrets, 'https://h.test', link)).toMatch(
      /^https:\/\/h\.test\/t\/c\/[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/,
    );
  });

  it('cannot be changed to point elsewhere', () => {
    const token = clickToken(secrets, link);
    expect(readClickToken(secrets, flipPayload(token))).toBeNull();
    const [payload, tag] = token.split('.') as [string, string];
    const otherTag = `${tag.slice(0, -1)}${tag.endsWith('A') ? 'B' : 'A'}`;
    expect(readClickToken(secrets, `${payload}.${otherTag}`)).toBeNull();
    // A well-formed payload with a tag made without our key.
    const forged = Buffer.from(JSON.stringify(['c', 7, 'em_01jtest', null, 'https://evil.example/'])).toString(
      'base64url',
    );
    expect(readClickToken(secrets, `${forged}.${tag}`)).toBeNull();
  });

  it('are refused under another secret, as the other kind, or malformed', () => {
    const other = new Secrets('another-secret-0123456789-0123456789-abcd');
    expect(readOpenToken(other, openToken(secrets, email))).toBeNull();
    expect(readClickToken(secrets, openToken(secrets, email))).toBeNull();
    expect(readOpenToken(secrets, clickToken(secrets, link))).toBeNull();
    for (const bad of ['', '.', 'abc', 'a.b.c', 'ab$.cd', `${'a'.repeat(TRACKING_TOKEN_MAX_LENGTH)}.b`]) {
      expect(readOpenToken(secrets, bad)).toBeNull();
      expect(readClickToken(secrets, bad)).toBeNull();
    }
  });

  it('never name a link that is not http(s), even when signed', () => {
    expect(readClickToken(secrets, clickToken(secrets, { ...link, link: 'javascript:alert(1)' }))).toBeNull();
  });
});
