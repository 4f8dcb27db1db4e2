// Webhook limits (contract, Limits: "webhook count depends on plan", numbers not shown; these are
// Herald's) and the per-minute limits per team the contract states.
import type { TeamPlan } from '../db/schema.ts';

export const planWebhookLimits: Record<TeamPlan, number> = {
  free: 5,
  pro: 50,
};

export const PER_MINUTE = {
  creations: 20,
  tests: 10,
  rotations: 10,
  retries: 30,
} as const;
