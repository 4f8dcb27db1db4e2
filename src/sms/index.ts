// What other areas may use of SMS. Everything else in this folder is the area's own.
export { registerSmsRoutes } from './routes.ts';
export { sendSms, smsSendDeps, SMS_DELIVERY_QUEUE, type SmsSendDeps, type SmsSendSource } from './send.ts';
export { prepareSms, type PreparedSms, type SmsCheckDeps } from './prepare.ts';
export { queueSms, type QueueSmsOptions } from './queue-sms.ts';
export { smsView } from './view.ts';
export { ClientIp } from './schemas.ts';
export { smsDeliveryQueue, type SmsDeliveryDeps } from './delivery.ts';
export { africasTalkingToken, smsCallbackRoutes, smsCallbackUrls } from './callback-routes.ts';
export { smsOutboxKeeper } from './outbox.ts';
export { listOutbox as listSmsOutbox, getSmsDelivery, deleteSmsOfTeam } from './queries.ts';
export { smsSentToCountry } from './context-queries.ts';
