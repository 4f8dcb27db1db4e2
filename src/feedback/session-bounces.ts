// A refusal answered during the delivery worker's own SMTP session (550 5.1.1 at RCPT, 552 after
// DATA...) goes through the same rules as a DSN reporting it later (bounce-rules.ts), and a hard one
// suppresses the address exactly as the DSN would. Built here and handed to the delivery worker in
// worker.ts: emails cannot import feedback, which reads and records emails.
import type { DeliveryBounces } from '../emails/index.ts';
import { classifyBounce } from './bounce-rules.ts';
import { upsertSuppressions } from './suppression-queries.ts';

export const sessionBounces: DeliveryBounces = {
  classify: (response) => classifyBounce({ action: 'failed', status: null, diagnosticCode: response }),
  suppress: async (tx, { teamId, emailId, addresses }, now) => {
    const distinct = [...new Set(addresses.map((a) => a.toLowerCase()))];
    await upsertSuppressions(
      tx,
      distinct.map((email) => ({ team_id: teamId, email, reason: 'HARD_BOUNCE' as const, email_id: emailId })),
      now,
    );
  },
};
