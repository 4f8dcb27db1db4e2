// Which bounces are hard (the address can never receive: the email becomes BOUNCED and the address is
// suppressed) and which are soft (DELIVERY_DELAYED, nothing suppressed), with a plain-language reason.
// Enhanced status codes (RFC 3463, class.subject.detail) decide where they are specific; the
// diagnostic text decides where the code is generic (X.0.0), ambiguous (X.7.1 is used for spam
// filters, sender blocks and, by some servers, unknown users) or missing (old MTAs' plain text).
// The rules and why are in README.md.

export type BounceType = 'hard' | 'soft';

export type BounceCategory =
  | 'unknown-user'
  | 'bad-domain'
  | 'mailbox-disabled'
  | 'mailbox-full'
  | 'message-too-large'
  | 'spam-rejected'
  | 'blocked'
  | 'temporary'
  | 'other';

export interface BounceClassification {
  bounceType: BounceType;
  category: BounceCategory;
  /** For people: what went wrong, without SMTP jargon. */
  reason: string;
  /** The enhanced status code the decision used (from Status:, or found in the text), if any. */
  status: string | null;
}

interface BounceInput {
  /** The DSN's Action (failed, delayed, ...), or what a plain-text bounce says. */
  action: string | null;
  status: string | null;
  diagnosticCode: string | null;
  /** Any other human-readable text about this recipient (plain-text bounces). */
  text?: string | null;
}

// Only these mean "this address will never take mail"; everything else is about the message, the
// sender or the moment, and suppressing the address for it would punish the recipient for our
// problem (a blocklisted sending IP would otherwise suppress a team's whole list within an hour).
const ADDRESS_IS_GONE: ReadonlySet<BounceCategory> = new Set([
  'unknown-user',
  'bad-domain',
  'mailbox-disabled',
  'other',
]);

interface Rule {
  category: BounceCategory;
  reason: string;
  /** The code is used for unrelated things in practice: let the text decide when it can. */
  ambiguous?: boolean;
}

const REASONS: Record<BounceCategory, string> = {
  'unknown-user': 'The mailbox does not exist',
  'bad-domain': "The recipient's domain does not exist or does not accept mail",
  'mailbox-disabled': 'The mailbox is disabled or no longer in use',
  'mailbox-full': 'The mailbox is full',
  'message-too-large': "The message is larger than the recipient's server accepts",
  'spam-rejected': "The recipient's server rejected the message as spam",
  blocked: "The recipient's server refused the message by policy or because of the sender's reputation",
  temporary: "The recipient's server could not take the message for now; delivery was delayed",
  other: "The recipient's server refused the message",
};

const rule = (category: BounceCategory, reason = REASONS[category], ambiguous = false): Rule => ({
  category,
  reason,
  ambiguous,
});

/** Keyed by subject.detail of the enhanced status code (RFC 3463 section 3). */
const STATUS_RULES: Readonly<Record<string, Rule>> = {
  '0.0': rule('other', REASONS.other, true),
  '1.0': rule('other', REASONS.other, true),
  '1.1': rule('unknown-user'),
  '1.2': rule('bad-domain', "The recipient's domain does not exist"),
  '1.3': rule('unknown-user', 'The address is not a valid mailbox address'),
  '1.6': rule('mailbox-disabled', 'The mailbox has moved and left no forwarding address'),
  // X.1.7 and X.1.8 are about the sender's address: nothing to hold against the recipient.
  '1.7': rule('blocked', "The receiver refused the sender's address"),
  '1.8': rule('blocked', "The receiver refused the sender's domain"),
  '1.10': rule('bad-domain', "The recipient's domain accepts no mail (null MX)"),
  '2.0': rule('other', REASONS.other, true),
  '2.1': rule('mailbox-disabled', 'The mailbox is disabled'),
  // RFC 3463: X.2.2 "should be used as a persistent transient failure": the owner can make room.
  '2.2': rule('mailbox-full'),
  '2.3': rule('message-too-large'),
  '3.4': rule('message-too-large'),
  // Office 365 answers unknown recipients with 5.4.1 "Recipient address rejected: Access denied".
  '4.1': rule('temporary', "The recipient's server did not answer", true),
  '4.4': rule('bad-domain', "No mail server could be found for the recipient's domain"),
  '4.7': rule('temporary', 'Delivery was retried until the message expired'),
  '7.1': rule('blocked', REASONS.blocked, true),
  '7.23': rule('blocked', "The message failed the receiver's SPF check"),
  '7.25': rule('blocked', 'The sending server has no matching reverse DNS'),
  '7.26': rule('blocked', "The message failed the receiver's authentication checks (SPF, DKIM, DMARC)"),
};

/**
 * Tried in order on the diagnostic and any other text; the first match wins. Postfix puts "Recipient
 * address rejected:" before every recipient restriction's own words, so those words decide.
 */
const TEXT_RULES: readonly { pattern: RegExp; category: BounceCategory }[] = [
  // A refusal of the sender (a MAIL FROM answer, repeated for each recipient) says nothing about them.
  { pattern: /sender address rejected|sender (?:domain|address) (?:not found|unknown|invalid)/i, category: 'blocked' },
  {
    pattern:
      /mailbox (?:is )?full|over ?quota|quota exceeded|exceeded (?:its|the|their)? ?(?:storage|quota)|insufficient (?:storage|disk space)|mailbox has exceeded/i,
    category: 'mailbox-full',
  },
  {
    pattern:
      /host or domain name not found|domain (?:not found|does not exist)|no mx|name service error|unrouteable (?:mail )?domain/i,
    category: 'bad-domain',
  },
  {
    pattern:
      /user unknown|unknown user|no such (?:user|mailbox|recipient)|(?:user|mailbox|address|recipient)(?: \S+)? (?:does not|doesn't) exist|does not exist|not found|couldn't be found|could not be found|invalid (?:recipient|mailbox|address)|unknown (?:recipient|mailbox|address)|no mailbox here|recipient address rejected: (?:access denied|user unknown)|recipient address rejected(?!: )|mailbox unavailable|unrouteable address|not our customer|no longer (?:valid|available)/i,
    category: 'unknown-user',
  },
  {
    pattern:
      /(?:account|mailbox) (?:is )?(?:disabled|inactive|suspended|deactivated|closed)|inactive (?:account|user)/i,
    category: 'mailbox-disabled',
  },
  { pattern: /too (?:large|big)|message size|size limit|exceeds .*(?:size|limit)/i, category: 'message-too-large' },
  // Blocklists name themselves (Spamhaus...) before the spam rule can take them for a content verdict.
  {
    pattern:
      /blacklist|black list|blocklist|denylist|listed (?:at|on|in|by)|\brbl\b|dnsbl|spamhaus|spamcop|barracuda|reputation/i,
    category: 'blocked',
  },
  {
    pattern: /spam|junk|unsolicited|bulk mail|content (?:rejected|filter)|message content|virus|malware|phish/i,
    category: 'spam-rejected',
  },
  { pattern: /block|policy|not (?:allowed|authorized|permitted)|denied|refused|banned|relay/i, category: 'blocked' },
  {
    pattern:
      /temporar|try again later|deferred|delayed|will (?:continue to )?retry|timed? ?out|connection (?:refused|reset)|greylist/i,
    category: 'temporary',
  },
];

// Not inside an IP address or version number ("10.5.1.1" holds no status code).
const ENHANCED = /(?<![\d.])([245])\.(\d{1,3})\.(\d{1,3})(?!\d|\.\d)/;
// An SMTP reply code as servers quote it: "550 ...", "550-...", "#550 ...", "said: 452 ...".
const BASIC_REPLY = /(?:^|[\s#:;([])([45])\d\d(?=[\s-])/m;

/** The enhanced status code in `value`, normalised ("5.1.1"), or null. */
export function findStatus(value: string | null | undefined): string | null {
  const match = ENHANCED.exec(value ?? '');
  return match ? `${match[1]}.${Number(match[2])}.${Number(match[3])}` : null;
}

function statusClass(status: string | null, texts: string, action: string | null): '4' | '5' | null {
  const cls = status?.[0] ?? BASIC_REPLY.exec(texts)?.[1] ?? null;
  if (cls === '4' || cls === '5') return cls;
  if (action === 'failed') return '5';
  if (action === 'delayed') return '4';
  return null;
}

/** Classifies one recipient's failure. Callers decide what is a failure: see the DSN's Action. */
export function classifyBounce(input: BounceInput): BounceClassification {
  const action = input.action?.trim().toLowerCase() ?? null;
  const texts = [input.diagnosticCode, input.text].filter((t): t is string => typeof t === 'string').join('\n');
  // A Status: field wins over a code quoted in the text: it is the reporting MTA's own verdict.
  const status = findStatus(input.status) ?? findStatus(texts);
  const cls = statusClass(status, texts, action);
  const detail = status === null ? null : status.slice(2);
  const byStatus =
    detail === null ? undefined : (STATUS_RULES[detail] ?? (detail.startsWith('7.') ? STATUS_RULES['7.1'] : undefined));
  const byText = TEXT_RULES.find((r) => r.pattern.test(texts));
  const chosen: Rule =
    byStatus !== undefined && !byStatus.ambiguous
      ? byStatus
      : byText !== undefined
        ? rule(byText.category)
        : (byStatus ?? rule(cls === '4' ? 'temporary' : 'other'));
  // A delay, or any 4.x.x, is transient by definition; permanent failures are hard only when the
  // category says the address itself is gone.
  const permanent = action !== 'delayed' && cls !== '4';
  const bounceType: BounceType = permanent && ADDRESS_IS_GONE.has(chosen.category) ? 'hard' : 'soft';
  const reason = !permanent && chosen.category === 'other' ? REASONS.temporary : chosen.reason;
  return { bounceType, category: chosen.category, reason, status };
}
