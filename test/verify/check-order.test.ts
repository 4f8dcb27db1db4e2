// The check order on one locked row (check.ts `judge`), and that the code is compared only when
// every earlier rule let the guess through: a locked-out, expired, used or refused code is never
// compared, so parallel guesses past the fifth are not evaluated.
import { describe, expect, it } from 'vitest';
import { judge } from '../../src/verify/check.ts';
import type { VerificationRow } from '../../src/verify/queries.ts';

const now = new Date('2026-01-01T00:00:00Z');
const row = (change: Partial<VerificationRow>): VerificationRow => ({
  id: 'ver_1',
  team_id: 1,
  api_key_id: null,
  channel: 'email',
  to_address: 'a@example.com',
  to_prefix: null,
  country: null,
  status: 'pending',
  code_hash: Buffer.alloc(32),
  attempts_remaining: 5,
  expires_at: new Date(now.getTime() + 1),
  email_id: null,
  sms_id: null,
  client_ip_hash: null,
  risk_score: 0,
  risk_level: 'LOW',
  risk_reasons: [],
  reason: null,
  verified_at: null,
  created_at: now,
  updated_at: now,
  ...change,
});

function run(r: VerificationRow, right: boolean) {
  let compared = 0;
  const outcome = judge(r, now, () => {
    compared += 1;
    return right;
  });
  return { ...outcome, compared };
}

describe('judge', () => {
  it('follows refused, already_used, expired, too_many_attempts, then compares', () => {
    const expired = new Date(now.getTime());
    expect(
      run(row({ status: 'refused', code_hash: null, expires_at: expired, attempts_remaining: 0 }), true),
    ).toMatchObject({
      reason: 'refused',
      compared: 0,
    });
    expect(run(row({ status: 'verified', expires_at: expired }), true)).toMatchObject({
      reason: 'already_used',
      compared: 0,
    });
    expect(run(row({ expires_at: expired, attempts_remaining: 0 }), true)).toMatchObject({
      reason: 'expired',
      compared: 0,
      change: { status: 'expired' },
    });
    expect(run(row({ status: 'failed', attempts_remaining: 0 }), true)).toMatchObject({
      reason: 'too_many_attempts',
      compared: 0,
    });
    expect(run(row({ status: 'failed', expires_at: expired }), true)).toMatchObject({ reason: 'expired', compared: 0 });
    expect(run(row({ attempts_remaining: 1 }), false)).toMatchObject({
      reason: 'wrong_code',
      compared: 1,
      change: { status: 'failed', attempts_remaining: 0 },
    });
    const right = run(row({ attempts_remaining: 2 }), true);
    expect(right).toMatchObject({
      compared: 1,
      change: { status: 'verified', attempts_remaining: 2, verified_at: now },
    });
    expect(right.reason).toBeUndefined();
  });

  it('one millisecond before expiresAt the code is still judged', () => {
    expect(run(row({ expires_at: new Date(now.getTime() + 1) }), true).change?.status).toBe('verified');
  });
});
