// What other areas may use of Emails. Everything else in this folder is the area's own.
export { registerEmailRoutes } from './routes.ts';
export {
  sendBatching,
  sendEmails,
  type Alongside,
  type SendBatching,
  type SendBatchingOptions,
  type SendDeps,
} from './send.ts';
export {
  queueEmails,
  queueEmailSends,
  EMAIL_DELIVERY_QUEUE,
  BULK_DELIVERY_QUEUE,
  type QueueEmailsOptions,
  type SendOutcome,
} from './queue-emails.ts';
export { SendLimitReached, UsageRaced } from './limits.ts';
export { withPreheader } from './send-rules.ts';
export { bulkDeliveryQueue, emailDeliveryLanes, emailDeliveryQueue, type DeliveryDeps } from './delivery.ts';
export type { DeliveryBounces } from './delivery-write.ts';
export { recordEmailEvent, recordEmailEvents, type EmailEventInput, type RecordedEvent } from './email-events.ts';
export type { EmailOfEvent } from './views.ts';
export { recordLaterOpens, type OpenInput } from './email-opens.ts';
export { LATER_OPENS_KEPT } from './open-queries.ts';
export { recordFirstOpens } from './first-opens.ts';
export { trackingEventWriters } from './tracking-event-writers.ts';
export { mayBecome, STATUS_MAY_BECOME } from './status-precedence.ts';
export { parseAddress, domainOf, isAddress, RECIPIENTS_MAX } from './recipients.ts';
export type { SendEmailInput } from './schemas.ts';
export { EMAIL_STATUSES } from './schemas.ts';
export { parseReturnPath, returnPathAddress } from './return-path.ts';
export {
  campaignEmailsPage,
  campaignOfEmail,
  emailsWithRecipients,
  failedEmailsOf,
  teamEmailIds,
  type CampaignEmail,
  type EmailWithRecipients,
} from './reader-queries.ts';
export { signAsHerald } from './dkim-sign.ts';
