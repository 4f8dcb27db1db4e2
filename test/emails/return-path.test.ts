// Per-email bounce addresses: a round trip names the email; anything edited or forged names none.
import { describe, expect, it } from 'vitest';
import { parseReturnPath, returnPathAddress } from '../../src/emails/return-path.ts';
import { newId } from '../../src/platform/ids.ts';
import { Secrets } from '../../src/platform/crypto.ts';

const secrets = new Secrets('a-test-master-secret-of-at-least-32-characters');
const other = new Secrets('another-master-secret-of-at-least-32-characters');

describe('return path', () => {
  it('round-trips an email id through bounce+<id>.<tag>@<return-path domain>', () => {
    const id = newId('em_');
    const address = returnPathAddress(id, 'send.acme.test', secrets);
    expect(address).toMatch(new RegExp(`^bounce\\+${id}\\.[a-z2-7]{16}@send\\.acme\\.test$`));
    expect(address.split('@')[0]!.length).toBeLessThanOrEqual(64);
    expect(parseReturnPath(address, secrets)).toBe(id);
    // Receivers may fold case or add angle brackets.
    expect(parseReturnPath(`<${address.toUpperCase()}>`, secrets)).toBe(id);
  });

  it('is stable for one id and differs between ids', () => {
    const a = newId('em_');
    const b = newId('em_');
    expect(returnPathAddress(a, 'send.acme.test', secrets)).toBe(returnPathAddress(a, 'send.acme.test', secrets));
    expect(returnPathAddress(a, 'send.acme.test', secrets).split('.')[1]).not.toBe(
      returnPathAddress(b, 'send.acme.test', secrets).split('.')[1],
    );
  });

  it('answers null for an edited, forged or foreign address', () => {
    const id = newId('em_');
    const address = returnPathAddress(id, 'send.acme.test', secrets);
    const [local, domain] = address.split('@') as [string, string];
    const tag = local.slice(local.lastIndexOf('.') + 1);
    const otherId = newId('em_');
    const flipped = tag.slice(0, -1) + (tag.endsWith('a') ? 'b' : 'a');
    expect(parseReturnPath(`bounce+${otherId}.${tag}@${domain}`, secrets)).toBeNull();
    expect(parseReturnPath(`bounce+${id}.${flipped}@${domain}`, secrets)).toBeNull();
    expect(parseReturnPath(`bounce+${id}.${tag.slice(0, -1)}@${domain}`, secrets)).toBeNull();
    expect(parseReturnPath(`bounce+${id}@${domain}`, secrets)).toBeNull();
    expect(parseReturnPath(`someone@${domain}`, secrets)).toBeNull();
    expect(parseReturnPath('not an address', secrets)).toBeNull();
    expect(parseReturnPath(address, other)).toBeNull();
  });

  it('refuses to build an address from an id that does not fit a local part', () => {
    expect(() => returnPathAddress('em_1@x', 'send.acme.test', secrets)).toThrow();
  });
});
