// Risk scoring shared by SMS and one-time codes: each area measures its signals, this module weighs
// them (weights from ../shared/research/otp-sms.md §8), sums them capped at 100, and names the level
// against HERALD_RISK_MEDIUM_AT / HERALD_RISK_HIGH_AT. A HIGH request is refused with 422 RISK_REFUSED
// and every reason it scored, in plain words.
import { ApiError } from './errors.ts';

const RISK_WEIGHTS = {
  /** Premium-rate or other non-mobile number: the classic SMS pumping destination. */
  NON_MOBILE_NUMBER: 40,
  /** A destination country the team has never sent to. */
  NEW_COUNTRY: 25,
  /** Many recent messages to numbers sharing this one's prefix (number minus its last four digits). */
  PREFIX_VELOCITY: 25,
  /** Many recent requests from the same client IP. */
  IP_VELOCITY: 20,
  /** Many recent messages to this very number. */
  RECIPIENT_VELOCITY: 15,
  /** One-time codes: an email address at a throwaway-mailbox domain. */
  DISPOSABLE_EMAIL: 30,
  /** One-time codes: the team's recent codes are seldom verified (codes nobody reads: pumping or abuse). */
  POOR_CONVERSION: 15,
} as const;

export type RiskCode = keyof typeof RISK_WEIGHTS;
export type RiskLevel = 'LOW' | 'MEDIUM' | 'HIGH';

export interface RiskReason {
  code: RiskCode;
  detail: string;
}

export interface RiskAssessment {
  score: number;
  level: RiskLevel;
  reasons: RiskReason[];
}

export interface RiskThresholds {
  mediumAt: number;
  highAt: number;
}

/** The weight each signal adds to the score (the table the areas' docs quote). */
export const riskWeight = (code: RiskCode): number => RISK_WEIGHTS[code];

export function assessRisk(reasons: RiskReason[], thresholds: RiskThresholds): RiskAssessment {
  const score = Math.min(
    100,
    reasons.reduce((sum, reason) => sum + RISK_WEIGHTS[reason.code], 0),
  );
  const level: RiskLevel = score >= thresholds.highAt ? 'HIGH' : score >= thresholds.mediumAt ? 'MEDIUM' : 'LOW';
  return { score, level, reasons };
}

/** Throws 422 RISK_REFUSED (contract: body carries `risk`) when the level is HIGH. */
export function refuseHighRisk(assessment: RiskAssessment): void {
  if (assessment.level !== 'HIGH') return;
  throw new ApiError(
    422,
    'RISK_REFUSED',
    `Refused by risk scoring (score ${assessment.score}): ${assessment.reasons.map((r) => r.detail).join('; ')}`,
    { extra: { risk: assessment } },
  );
}
