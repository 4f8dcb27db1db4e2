// What other parts of Herald use of direct delivery's destinations: the database's ledger (wired
// into the `direct` transport by build-deps.ts) and the list of backed-off destinations (admin).
export { databaseDestinationLedger, SLOT_LEASE_MS } from './ledger.ts';
export { listDestinationBackoffs } from './queries.ts';
export { registerDirectDeliveryMetrics } from './metrics.ts';
