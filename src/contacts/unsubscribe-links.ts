// TEMPORARY: goes once contacts/double-opt-in-queue.ts imports platform/unsubscribe-links.ts itself.
export { contactUnsubscribeUrl } from '../platform/unsubscribe-links.ts';
