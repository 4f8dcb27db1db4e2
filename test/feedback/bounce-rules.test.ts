// The rule table: which failures are hard (suppress the address) and which soft, on diagnostics as
// real servers word them. Status codes decide where specific; the text where they are not.
import { describe, expect, it } from 'vitest';
import { classifyBounce, findStatus, type BounceCategory, type BounceType } from '../../src/feedback/bounce-rules.ts';

type Case = [
  string,
  { action: string | null; status: string | null; diagnosticCode: string | null },
  BounceType,
  BounceCategory,
];

const failed = (status: string | null, diagnosticCode: string | null) => ({ action: 'failed', status, diagnosticCode });

const CASES: Case[] = [
  [
    'Postfix unknown user',
    failed('5.1.1', '550 5.1.1 <a@example.org>: Recipient address rejected: User unknown in local recipient table'),
    'hard',
    'unknown-user',
  ],
  [
    'Gmail NoSuchUser',
    failed('5.1.1', '550-5.1.1 The email account that you tried to reach does not exist.'),
    'hard',
    'unknown-user',
  ],
  [
    'domain does not exist',
    failed('5.1.2', 'Host or domain name not found. Name service error for name=nope.example type=A: Host not found'),
    'hard',
    'bad-domain',
  ],
  ['null MX (RFC 7505)', failed('5.1.10', '556 5.1.10 Recipient address has null MX'), 'hard', 'bad-domain'],
  [
    'disabled account',
    failed('5.2.1', '550 5.2.1 The email account that you tried to reach is disabled.'),
    'hard',
    'mailbox-disabled',
  ],
  [
    'Office 365 directory-based edge blocking',
    failed('5.4.1', '550 5.4.1 Recipient address rejected: Access denied. AS(201806281)'),
    'hard',
    'unknown-user',
  ],
  ['5.0.0 with "no such user" text', failed('5.0.0', '550 No such user here'), 'hard', 'unknown-user'],
  ['5.x.x nobody explains', failed('5.3.0', '554 Transaction failed'), 'hard', 'other'],
  ['mailbox full, permanent code', failed('5.2.2', '552 5.2.2 Mailbox full'), 'soft', 'mailbox-full'],
  [
    'mailbox full, temporary code',
    failed('4.2.2', '452 4.2.2 The email account that you tried to reach is over quota.'),
    'soft',
    'mailbox-full',
  ],
  ['too large', failed('5.3.4', '552 5.3.4 Message size exceeds fixed limit'), 'soft', 'message-too-large'],
  [
    'Gmail spam block',
    failed('5.7.1', '550-5.7.1 Our system has detected that this message is likely unsolicited mail.'),
    'soft',
    'spam-rejected',
  ],
  [
    'Spamhaus listing (not a content verdict)',
    failed('5.7.1', '554 5.7.1 Service unavailable; Client host [203.0.113.5] blocked using zen.spamhaus.org'),
    'soft',
    'blocked',
  ],
  [
    'Gmail DMARC',
    failed('5.7.26', '550-5.7.26 This mail has been blocked because the sender is unauthenticated.'),
    'soft',
    'blocked',
  ],
  ['relay denied', failed('5.7.1', '554 5.7.1 <a@example.org>: Relay access denied'), 'soft', 'blocked'],
  [
    "a Postfix access map's policy refusal (its words after 'Recipient address rejected:' decide)",
    failed('5.7.1', '554 5.7.1 <a@example.org>: Recipient address rejected: policy block'),
    'soft',
    'blocked',
  ],
  ['a bare Recipient address rejected', failed(null, '550 Recipient address rejected'), 'hard', 'unknown-user'],
  [
    "the sender's domain refused (a MAIL FROM answer)",
    failed('5.1.8', '553 5.1.8 <news@acme.test>: Sender address rejected: Domain not found'),
    'soft',
    'blocked',
  ],
  [
    'the sender refused, no status field',
    failed(null, '550 <news@acme.test>: Sender address rejected: not owned by user'),
    'soft',
    'blocked',
  ],
  ['gave up after retries (4.4.7, action failed)', failed('4.4.7', 'delivery time expired'), 'soft', 'temporary'],
  ['delayed, whatever the code', { action: 'delayed', status: '5.1.1', diagnosticCode: null }, 'soft', 'unknown-user'],
  ['no Status field: the code in the text', failed(null, '550 5.1.1 user unknown'), 'hard', 'unknown-user'],
  ['no code at all, plain words', failed(null, 'Sorry, no mailbox here by that name.'), 'hard', 'unknown-user'],
  [
    'only a basic reply code',
    { action: null, status: null, diagnosticCode: '452 Too many recipients received this hour' },
    'soft',
    'temporary',
  ],
];

describe('classifyBounce', () => {
  it.each(CASES)('%s', (_name, input, bounceType, category) => {
    const verdict = classifyBounce(input);
    expect({ bounceType: verdict.bounceType, category: verdict.category }).toEqual({ bounceType, category });
    expect(verdict.reason).toMatch(/^[A-Z].{10,}$/);
  });

  it('gives the plain-language reason for an unknown user', () => {
    expect(classifyBounce(failed('5.1.1', null)).reason).toBe('The mailbox does not exist');
  });

  it('a specific status code beats contrary text; an ambiguous one does not', () => {
    expect(classifyBounce(failed('5.2.2', '550 user unknown')).category).toBe('mailbox-full');
    expect(classifyBounce(failed('5.7.1', '550 5.7.1 user unknown')).category).toBe('unknown-user');
  });
});

describe('findStatus', () => {
  it('finds enhanced codes, not IP addresses or versions', () => {
    expect(findStatus('550-5.1.1 The email account')).toBe('5.1.1');
    expect(findStatus('(#5.1.1)')).toBe('5.1.1');
    expect(findStatus('host 10.5.1.1 said: 550 go away')).toBeNull();
    expect(findStatus('Postfix 3.5.1 here')).toBeNull();
    expect(findStatus('5.01.010')).toBe('5.1.10');
  });
});
