// The read replica on /metrics, read when scraped: how far behind the primary it was at its last
// check, and whether reads use it (1), or go to the primary because it lags or is down (0).
import { Gauge, type Registry } from 'prom-client';
import type { ReplicaReads } from './replica.ts';

export function registerReplicaMetrics(registry: Registry, replica: ReplicaReads): void {
  new Gauge({
    name: 'herald_db_replica_lag_seconds',
    help: 'How far the read replica was behind the primary at its last check',
    registers: [registry],
    collect() {
      this.set(replica.lagMs / 1000);
    },
  });
  new Gauge({
    name: 'herald_db_replica_in_use',
    help: 'Whether reads that tolerate lag go to the replica (1) or to the primary (0: lagging or down)',
    registers: [registry],
    collect() {
      this.set(replica.state === 'up' ? 1 : 0);
    },
  });
}
