// What other areas may use of Inboxes. Everything else in this folder is the area's own.
export { registerInboundRoutes, type InboundRoutesDeps } from './routes.ts';
export { registerAttachmentRoutes } from './attachment-routes.ts';
export {
  createInboxIntake,
  inboxIntakeOf,
  type InboxIntake,
  type InboxIntakeDeps,
  type IntakeMessage,
} from './intake.ts';
export { createInbox, removeInbox } from './manage.ts';
export { domainIdsWithInboxes, INBOX_CHANNEL, listInboxes } from './queries.ts';
export { LiveInboxAddresses } from './live-addresses.ts';
export { inboxAddressOf } from './addresses.ts';
export { removeExpiredOriginals } from './retention.ts';
