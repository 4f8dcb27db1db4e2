// The /v1/campaigns API tests' bed: a file's email harness and a pro campaign team to work as.
import { afterAll, beforeAll } from 'vitest';
import { startEmailHarness, type EmailHarness } from '../emails/support.ts';
import { campaignTeam, type CampaignTeam } from './support.ts';

/** The harness and team, made before the file's tests and closed after them. */
export function campaignApiSuite(): { readonly h: EmailHarness; readonly team: CampaignTeam } {
  const suite = {} as { h: EmailHarness; team: CampaignTeam };
  beforeAll(async () => {
    suite.h = await startEmailHarness();
    suite.team = await campaignTeam(suite.h);
  }, 120_000);
  afterAll(() => suite.h.close());
  return suite;
}
