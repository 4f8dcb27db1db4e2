// What other areas may use of Accounts (teams, members, API keys, whoami, first-start bootstrap).
// Everything else in this folder is the area's own.
export { registerWhoami } from './routes.ts';
export { createApiKey, type CreatedApiKey } from './api-keys.ts';
export {
  addMember,
  apiKeyName,
  createTeam,
  deleteApiKey,
  getMember,
  getTeam,
  listApiKeys,
  listMembers,
  lockTeamBilling,
  ownerAndAdminEmails,
  setMemberRole,
  setTeamPlanAndBillingMethod,
  teamBillingColumns,
  teamsOfStripeCustomer,
  teamsPayingProFromWallet,
  teamEffectivePlanOf,
  teamNameOf,
  updateTeam,
  type TeamBillingColumns,
} from './queries.ts';
export { bootstrapBanner, bootstrapFirstTeam } from './bootstrap.ts';
export { registerApiKeyRoutes, type ApiKeyRouteDeps } from './key-routes.ts';
export type { KeyChangeWriters } from './key-changes.ts';
