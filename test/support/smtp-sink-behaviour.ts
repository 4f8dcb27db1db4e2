// How the SMTP sink answers (test/support/smtp-sink.ts): the rules' types and refusals, and the
// behaviours per address (connection limits, stalls) with the connections being stalled now.

export type SinkStage = 'rcpt' | 'data';

export interface SinkRule {
  stage: SinkStage;
  /** 250 (accept), 4xx or 5xx. */
  code: number;
  message?: string;
}

export type SinkStall = 'greeting' | 'data';

export interface SinkBehaviour {
  /**
   * A connection beyond this many open (not refused) ones on the address is answered
   * `421 4.7.0 Too many connections` instead of the greeting, and closed.
   */
  maxConnections?: number;
  /** Accept the connection but never send the greeting, or never answer the end of DATA, until it closes. */
  stall?: SinkStall;
}

export const ANY = '*';

export class SmtpReplyError extends Error {
  readonly responseCode: number;
  constructor(code: number, message: string) {
    super(message);
    this.responseCode = code;
  }
}

/** The error smtp-server answers with when `rule` refuses (4xx or 5xx), else null. */
export function refusal(rule: SinkRule | undefined): SmtpReplyError | null {
  return rule && rule.code >= 400
    ? new SmtpReplyError(rule.code, rule.message ?? `refused by the test (${rule.stage})`)
    : null;
}

/** A connection the sink is stalling: `go` carries on as if no stall had been set, `refuse` answers an error. */
export interface Stalled {
  kind: SinkStall;
  localAddress: string;
  go: () => void;
  refuse: (error: Error) => void;
}

export class SinkBehaviours {
  /** Behaviours by address, '*' for every address; the address's own wins field by field. */
  readonly #behaviours = new Map<string, SinkBehaviour>();
  readonly #initialBehaviour: SinkBehaviour | undefined;
  readonly #stalled = new Map<string, Stalled>();

  constructor(initial: SinkBehaviour | undefined) {
    this.#initialBehaviour = initial;
    if (initial) this.#behaviours.set(ANY, initial);
  }

  of(address: string): SinkBehaviour {
    return { ...this.#behaviours.get(ANY), ...this.#behaviours.get(address) };
  }

  /** `behaviour` for `address` ('*': every address), or none when null; stalls that no longer apply end. */
  set(behaviour: SinkBehaviour | null, address: string): void {
    if (behaviour === null) this.#behaviours.delete(address);
    else this.#behaviours.set(address, behaviour);
    this.#releaseStalls();
  }

  /** Back to the behaviour given at start; stalled connections carry on. */
  reset(): void {
    this.#behaviours.clear();
    if (this.#initialBehaviour) this.#behaviours.set(ANY, this.#initialBehaviour);
    this.#releaseStalls();
  }

  stall(sessionId: string, stalled: Stalled): void {
    this.#stalled.set(sessionId, stalled);
  }

  /** The connection of `sessionId` closed: nothing more to release. */
  closed(sessionId: string): void {
    this.#stalled.delete(sessionId);
  }

  /** Connections being stalled now (at greeting or after DATA). */
  get stalledCount(): number {
    return this.#stalled.size;
  }

  /** Answers every stalled connection with an error of `error()`. */
  refuseAll(error: () => Error): void {
    const stalled = [...this.#stalled.values()];
    this.#stalled.clear();
    for (const entry of stalled) entry.refuse(error());
  }

  #releaseStalls(): void {
    for (const [id, stalled] of this.#stalled) {
      if (this.of(stalled.localAddress).stall === stalled.kind) continue;
      this.#stalled.delete(id);
      stalled.go();
    }
  }
}
