// The webhook-delivery lane of a worker: keeps up to MAX_IN_FLIGHT calls going at once, each
// webhook at most PER_WEBHOOK of them (across all workers, see claimDueCalls), claims more as soon
// as slots free up, and writes outcomes back in coalesced batches. A call is claimed with a lease;
// a worker that dies leaves it IN_PROGRESS until the lease expires, then it is due again.
import type { Kysely } from 'kysely';
import { Counter, Histogram, type Registry } from 'prom-client';
import type { Database } from '../db/schema.ts';
import type { Clock } from '../platform/clock.ts';
import { Coalescer } from '../platform/coalescer.ts';
import type { Secrets } from '../platform/crypto.ts';
import { WakeSignal, type Lane, type QueueLogger } from '../queue/index.ts';
import { attemptDelivery, REQUEST_TIMEOUT_MS, type AttemptResult, type AttemptTransport } from './attempt.ts';
import {
  claimDueCalls,
  handBackCalls,
  releaseExpiredCalls,
  writeOutcomes,
  type CallOutcome,
  type ClaimedCall,
} from './dispatch-queries.ts';
import { WEBHOOK_DELIVERY_QUEUE } from './events.ts';
import { nextAttemptAt } from './retry-schedule.ts';

const MAX_IN_FLIGHT = 256;
export const PER_WEBHOOK = 64;
// Longer than an attempt can take (15 s), so a live worker never loses a call it is delivering.
const LEASE_MS = REQUEST_TIMEOUT_MS * 4;
const REAP_EVERY_MS = 30_000;
const MAX_FINISHING = 512;

interface DispatcherDeps {
  db: Kysely<Database>;
  clock: Clock;
  secrets: Secrets;
  transport: AttemptTransport;
  logger: QueueLogger;
  metrics?: Registry;
  pollMs?: number;
  maxInFlight?: number;
  perWebhook?: number;
  /** Whole-request limit of one attempt; 15 s (tests shorten it to see a hanging endpoint fail). */
  requestTimeoutMs?: number;
}

/** What an attempt leads to (docs/webhooks.md): delivered; 410 fails at once; else the schedule. */
function outcomeOf(call: ClaimedCall, result: AttemptResult, at: Date): CallOutcome {
  const next = result.delivered || result.gone ? null : nextAttemptAt(call.attempt, at, result.retryAfterMs);
  return {
    id: call.id,
    lease: call.lease_until,
    status: result.delivered ? 'DELIVERED' : next === null ? 'FAILED' : 'PENDING',
    nextAttemptAt: next,
    lastError: result.gone ? 'the endpoint answered 410 Gone' : result.error,
    responseStatus: result.responseStatus,
    responseTimeMs: result.responseTimeMs,
    responseText: result.responseText,
    delivered: result.delivered,
    at,
  };
}

function dispatcherMetrics(registry: Registry | undefined) {
  if (!registry) return null;
  const attempts =
    (registry.getSingleMetric('herald_webhook_attempts_total') as Counter | undefined) ??
    new Counter({
      name: 'herald_webhook_attempts_total',
      help: 'Webhook delivery attempts by outcome',
      labelNames: ['outcome'],
      registers: [registry],
    });
  const seconds =
    (registry.getSingleMetric('herald_webhook_attempt_seconds') as Histogram | undefined) ??
    new Histogram({
      name: 'herald_webhook_attempt_seconds',
      help: 'Time of one webhook delivery attempt',
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 15],
      registers: [registry],
    });
  return { attempts, seconds };
}

export class WebhookDispatcher implements Lane {
  readonly name = WEBHOOK_DELIVERY_QUEUE;
  readonly #deps: DispatcherDeps;
  readonly #max: number;
  readonly #perWebhook: number;
  readonly #wake = new WakeSignal();
  readonly #inFlight = new Map<string, ClaimedCall>();
  /** Attempts that are over, their outcome not yet written: the slot is free, the row still IN_PROGRESS. */
  readonly #finishing = new Set<string>();
  readonly #writer: Coalescer<CallOutcome, number>;
  readonly #secrets = new Map<string, string>();
  readonly #metrics: ReturnType<typeof dispatcherMetrics>;
  #loop: Promise<void> | null = null;
  #stopping = false;
  #drained: (() => void) | null = null;
  #claims = 0;
  #idleWaiters: { after: number; resolve: () => void }[] = [];
  #lastReap = Number.NEGATIVE_INFINITY;

  constructor(deps: DispatcherDeps) {
    this.#deps = deps;
    this.#max = deps.maxInFlight ?? MAX_IN_FLIGHT;
    this.#perWebhook = deps.perWebhook ?? PER_WEBHOOK;
    this.#metrics = dispatcherMetrics(deps.metrics);
    this.#writer = new Coalescer(
      async (outcomes) => {
        await writeOutcomes(deps.db, outcomes, deps.clock.now());
        return outcomes.map(() => 1);
      },
      // While busy, a write waits up to 5 ms for more outcomes: their slots are already free, and
      // each write costs about the same for 20 outcomes as for 8 (bench/RESULTS.md, webhook delivery).
      { maxBatch: 64, concurrency: 2, gatherMs: 5 },
    );
  }

  start(): void {
    this.#loop = this.#run();
  }

  notify(): void {
    this.#wake.fire();
  }

  idle(): Promise<void> {
    return new Promise((resolve) => {
      this.#idleWaiters.push({ after: this.#claims, resolve });
      this.#wake.fire();
    });
  }

  #resolveIdle(claim: number): void {
    const ready = this.#idleWaiters.filter((waiter) => waiter.after < claim);
    this.#idleWaiters = this.#idleWaiters.filter((waiter) => waiter.after >= claim);
    for (const waiter of ready) waiter.resolve();
  }

  async #run(): Promise<void> {
    const { db, clock, logger } = this.#deps;
    const pollMs = this.#deps.pollMs ?? 1000;
    while (!this.#stopping) {
      // With attempts still running, let the answers that are already in come back first, so one
      // claim fills several freed slots instead of one claim per answer.
      if (this.#inFlight.size > 0) await new Promise((resolve) => setImmediate(resolve));
      const free = this.#max - this.#inFlight.size;
      // Outcome writes that fall behind hold back new attempts rather than pile up in memory.
      if (free <= 0 || this.#finishing.size >= MAX_FINISHING) {
        await this.#wake.wait(pollMs);
        continue;
      }
      const claim = ++this.#claims;
      this.#wake.clear();
      let calls: ClaimedCall[] = [];
      try {
        const now = clock.now();
        if (now.getTime() - this.#lastReap >= REAP_EVERY_MS) {
          this.#lastReap = now.getTime();
          const released = await releaseExpiredCalls(db, now);
          if (released > 0) logger.warn({ released }, 'webhook calls whose worker stopped are due again');
        }
        calls = await claimDueCalls(db, now, new Date(now.getTime() + LEASE_MS), free, this.#perWebhook, [
          ...this.#finishing,
        ]);
      } catch (error) {
        logger.error({ err: error }, 'webhook call claim failed');
      }
      const checkHost = batchHostCheck(this.#deps.transport);
      for (const call of calls) this.#deliver(call, checkHost);
      if (calls.length === 0 && this.#inFlight.size === 0 && this.#finishing.size === 0) this.#resolveIdle(claim);
      // Fewer than asked: nothing more is due (or the rest waits for a webhook's slots); a finished
      // call, a notification or the poll interval wakes the loop.
      if (calls.length < free && !this.#stopping) await this.#wake.wait(pollMs);
    }
  }

  #secret(sealed: string): string {
    let secret = this.#secrets.get(sealed);
    if (secret === undefined) {
      secret = this.#deps.secrets.decrypt(sealed);
      if (this.#secrets.size > 1_000) this.#secrets.clear();
      this.#secrets.set(sealed, secret);
    }
    return secret;
  }

  /**
   * One attempt. Its slot is given back as soon as the endpoint has answered, so the next claim
   * overlaps the outcome write (written in batches with other calls' outcomes).
   */
  #deliver(call: ClaimedCall, checkHost: AttemptTransport['checkHost']): void {
    const { clock, transport, logger } = this.#deps;
    this.#inFlight.set(call.id, call);
    const release = (set: Map<string, ClaimedCall> | Set<string>) => {
      set.delete(call.id);
      if (this.#inFlight.size === 0 && this.#finishing.size === 0) this.#drained?.();
      this.#wake.fire();
    };
    void (async () => {
      const result = await attemptDelivery(
        { dispatcher: () => transport.dispatcher(), checkHost },
        {
          callId: call.id,
          type: call.type,
          attempt: call.attempt,
          url: call.url,
          secret: this.#secret(call.secret_sealed),
          payload: call.payload,
        },
        clock.now(),
        this.#deps.requestTimeoutMs,
      );
      this.#metrics?.attempts.inc({ outcome: result.delivered ? 'delivered' : 'failed' });
      this.#metrics?.seconds.observe(result.responseTimeMs / 1000);
      this.#finishing.add(call.id);
      release(this.#inFlight);
      try {
        await this.#writer.submit(outcomeOf(call, result, clock.now()));
      } finally {
        release(this.#finishing);
      }
    })().catch((error: unknown) => {
      // The call keeps its lease and is due again when it expires: at least once, never lost.
      logger.error({ err: error, callId: call.id }, 'webhook call outcome not written');
      release(this.#inFlight);
    });
  }

  async stop(deadline: Promise<void>): Promise<number> {
    try {
      return await this.#stop(deadline);
    } finally {
      await this.#deps.transport.close?.().catch(() => {});
    }
  }

  async #stop(deadline: Promise<void>): Promise<number> {
    this.#stopping = true;
    this.#resolveIdle(Number.POSITIVE_INFINITY);
    this.#wake.fire();
    await this.#loop;
    if (this.#inFlight.size === 0 && this.#finishing.size === 0) return 0;
    const drained = new Promise<boolean>((resolve) => {
      this.#drained = () => resolve(true);
    });
    if (await Promise.race([drained, deadline.then(() => false)])) return 0;
    // Hand the unfinished calls back so another worker sends them without waiting for the lease;
    // an outcome that still arrives later no longer matches the lease and writes nothing.
    return handBackCalls(this.#deps.db, [...this.#inFlight.values()], this.#deps.clock.now());
  }
}

/**
 * Contract: the address is checked again before every delivery. The calls claimed together (one
 * batch) share one check per host, made when the first of them starts; a later batch checks again.
 */
function batchHostCheck(transport: AttemptTransport): AttemptTransport['checkHost'] {
  const checks = new Map<string, Promise<void>>();
  return (hostname, scheme) => {
    const key = `${scheme}//${hostname.toLowerCase()}`;
    let check = checks.get(key);
    if (check === undefined) {
      check = transport.checkHost(hostname, scheme);
      checks.set(key, check);
    }
    return check;
  };
}
