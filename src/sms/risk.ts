// The SMS pumping signals (research §8): a non-mobile destination, a country the team never sent
// to, and bursts to one prefix, one number or from one client IP over the last ten minutes.
import { assessRisk, type RiskAssessment, type RiskReason, type RiskThresholds } from '../platform/risk.ts';
import type { ParsedPhone } from '../platform/phone.ts';
import type { RecentSends } from './context-queries.ts';

/** The window the bursts are counted over. */
export const RISK_WINDOW_MS = 10 * 60_000;
/** Messages in the window from which each burst counts as a signal. */
const BURST_AT = { toPrefix: 10, toNumber: 5, clientIp: 10 } as const;
/** Counting stops here: no burst signal needs more. */
export const RISK_COUNT_CAP = Math.max(BURST_AT.toPrefix, BURST_AT.toNumber, BURST_AT.clientIp);
/** Number types that are mobile or may be (libphonenumber cannot tell some countries' ranges apart). */
const MOBILE_TYPES = new Set(['MOBILE', 'FIXED_LINE_OR_MOBILE']);

export function assessSmsRisk(
  recent: RecentSends,
  q: { phone: ParsedPhone; country: string; clientIpHash: Buffer | null; thresholds: RiskThresholds },
): RiskAssessment {
  const reasons: RiskReason[] = [];
  const type = q.phone.numberType ?? 'UNKNOWN';
  if (!MOBILE_TYPES.has(type))
    reasons.push({
      code: 'NON_MOBILE_NUMBER',
      detail:
        type === 'PREMIUM_RATE'
          ? 'the number is premium-rate'
          : `the number is not a mobile number (${type.toLowerCase().replaceAll('_', ' ')})`,
    });
  if (!recent.sentToCountry)
    reasons.push({ code: 'NEW_COUNTRY', detail: `the team has never sent an SMS to ${q.country}` });
  if (recent.toPrefix >= BURST_AT.toPrefix)
    reasons.push({
      code: 'PREFIX_VELOCITY',
      detail: `${recent.toPrefix} or more messages to numbers with this prefix in the last 10 minutes`,
    });
  if (recent.toNumber >= BURST_AT.toNumber)
    reasons.push({
      code: 'RECIPIENT_VELOCITY',
      detail: `${recent.toNumber} or more messages to this number in the last 10 minutes`,
    });
  if (q.clientIpHash !== null && recent.clientIp >= BURST_AT.clientIp)
    reasons.push({
      code: 'IP_VELOCITY',
      detail: `${recent.clientIp} or more messages for this client IP in the last 10 minutes`,
    });
  return assessRisk(reasons, q.thresholds);
}
