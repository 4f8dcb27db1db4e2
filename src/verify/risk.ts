// Risk scoring of one-time codes: the signals as a table (what each measures, when it fires, what it
// tells the caller), weighed by the shared scorer (platform/risk.ts: weights, cap at 100, levels from
// HERALD_RISK_MEDIUM_AT / HERALD_RISK_HIGH_AT). Scored before anything is sent or charged.
import type { NumberType } from 'libphonenumber-js/max';
import {
  assessRisk,
  type RiskAssessment,
  type RiskCode,
  type RiskReason,
  type RiskThresholds,
} from '../platform/risk.ts';
import type { RiskCounts } from './send-facts-queries.ts';

/** The window of the velocity signals (Twilio Verify counts sends per 10 minutes too). */
export const VELOCITY_WINDOW_MS = 10 * 60_000;
/** Requests in the window, before this one, from which each velocity signal fires. */
export const VELOCITY_AT = { recipient: 3, clientIp: 10, prefix: 10 } as const;
/**
 * Conversion: the latest finished codes made between a day and ten minutes ago (the default expiry:
 * younger ones are mostly still pending, and a busy team would scan them all); fires below 20%
 * verified once there are 20.
 */
export const CONVERSION = {
  windowMs: 24 * 3_600_000,
  settleMs: 10 * 60_000,
  sample: 50,
  minFinished: 20,
  minVerifiedShare: 0.2,
} as const;
/** Line types that are, or may be, mobile (libphonenumber cannot tell some countries' ranges apart). */
const MOBILE_TYPES = new Set<string>(['MOBILE', 'FIXED_LINE_OR_MOBILE']);

export interface RiskFacts {
  channel: 'email' | 'sms';
  counts: RiskCounts;
  hasClientIp: boolean;
  /** sms: the number's line type (null when libphonenumber cannot say) and country. */
  numberType: NumberType | null;
  country: string | null;
  /** email: the recipient's domain. */
  emailDomain: string | null;
  disposableEmail: boolean;
}

interface Signal {
  code: RiskCode;
  /** The detail when the signal fires, else null. */
  fires(f: RiskFacts): string | null;
}

const lineType = (type: string) => type.toLowerCase().replaceAll('_', ' ');

/** Every signal of a code send, in the order the reasons are listed. */
export const SIGNALS: readonly Signal[] = [
  {
    code: 'NON_MOBILE_NUMBER',
    fires: (f) => {
      if (f.channel !== 'sms') return null;
      const type = f.numberType ?? 'UNKNOWN';
      if (MOBILE_TYPES.has(type)) return null;
      return type === 'PREMIUM_RATE'
        ? 'the number is premium-rate: codes sent there earn its owner money (SMS pumping)'
        : `the number is not a mobile number (${lineType(type)}), so it cannot read an SMS code`;
    },
  },
  {
    code: 'NEW_COUNTRY',
    fires: (f) =>
      f.channel === 'sms' && !f.counts.knownCountry
        ? `the team has never sent an SMS or a code to ${f.country}; a first send to a country is how pumping starts`
        : null,
  },
  {
    code: 'PREFIX_VELOCITY',
    fires: (f) =>
      f.channel === 'sms' && f.counts.toPrefix >= VELOCITY_AT.prefix
        ? `${f.counts.toPrefix} or more codes to numbers sharing this one's prefix in the last 10 minutes (a number range being pumped)`
        : null,
  },
  {
    code: 'IP_VELOCITY',
    fires: (f) =>
      f.hasClientIp && f.counts.fromClientIp >= VELOCITY_AT.clientIp
        ? `${f.counts.fromClientIp} or more codes requested from this client IP in the last 10 minutes`
        : null,
  },
  {
    code: 'RECIPIENT_VELOCITY',
    fires: (f) =>
      f.counts.toRecipient >= VELOCITY_AT.recipient
        ? `${f.counts.toRecipient} or more codes requested for this recipient in the last 10 minutes`
        : null,
  },
  {
    code: 'DISPOSABLE_EMAIL',
    fires: (f) =>
      f.channel === 'email' && f.disposableEmail
        ? `${f.emailDomain} is a disposable (throwaway) mailbox service`
        : null,
  },
  {
    code: 'POOR_CONVERSION',
    fires: (f) => {
      const { finished, verified } = f.counts;
      if (finished < CONVERSION.minFinished || verified >= finished * CONVERSION.minVerifiedShare) return null;
      return `only ${verified} of the team's last ${finished} finished codes were verified: most codes are not reaching people who want them`;
    },
  },
];

export function scoreVerification(facts: RiskFacts, thresholds: RiskThresholds): RiskAssessment {
  const reasons: RiskReason[] = [];
  for (const signal of SIGNALS) {
    const detail = signal.fires(facts);
    if (detail !== null) reasons.push({ code: signal.code, detail });
  }
  return assessRisk(reasons, thresholds);
}

/** Adds the reasons another scorer found (the SMS area's, on the same message) that ours did not. */
export function mergeRisk(ours: RiskAssessment, theirs: RiskReason[], thresholds: RiskThresholds): RiskAssessment {
  const seen = new Set(ours.reasons.map((r) => r.code));
  return assessRisk([...ours.reasons, ...theirs.filter((r) => !seen.has(r.code))], thresholds);
}
