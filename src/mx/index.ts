// What other areas may use of MX (mail arriving for Herald). Everything else in this folder is the
// area's own; the root files (services.ts, worker.ts) start the listener, spool and queue directly.
export { failedInboundRaw, listFailedInbound, type FailedInboundMessage } from './failed-message-queries.ts';
