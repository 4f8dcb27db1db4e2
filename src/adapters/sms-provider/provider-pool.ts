// One provider origin's connections: undici's Pool (at most `connections` sockets, kept alive; the
// requests beyond them wait in its queue, in order), plus the one thing request() does not say: whether
// a request went out on a connection. A request that failed after that may have reached the provider
// (an unconfirmed hand-off); one that failed before never left and is safe to send again.
import { Pool, type Dispatcher } from 'undici';

/** What http.ts hands request(); `sent` turns true when it goes out on a connection. */
export interface ProviderRequest extends Dispatcher.RequestOptions {
  signal: AbortSignal;
  sent: boolean;
}

/**
 * request()'s handler, passed through, watching for the moment undici writes the request (onConnect).
 * While the request waits in the queue it listens to its signal (as the listener object itself, no
 * closure), so an abort ends the caller's wait at once rather than when a connection frees up.
 */
class Departure implements Dispatcher.DispatchHandler {
  readonly #handler: Dispatcher.DispatchHandler;
  readonly #request: ProviderRequest;
  #listening = true;
  #answered = false;

  constructor(handler: Dispatcher.DispatchHandler, request: ProviderRequest) {
    this.#handler = handler;
    this.#request = request;
    request.signal.addEventListener('abort', this, { once: true });
  }

  /** The signal ended while the request waited for a connection: it fails now, unsent. */
  handleEvent(): void {
    this.#listening = false;
    this.onError(this.#request.signal.reason as Error);
  }

  onConnect(abort: (error?: Error) => void): void {
    this.#stopListening();
    // Thrown, undici fails the request without writing it and keeps the connection; the abort it
    // hands request() would close the connection for a request that never used it.
    if (this.#request.signal.aborted) throw this.#request.signal.reason;
    this.#request.sent = true;
    this.#handler.onConnect!(abort);
  }

  onHeaders(status: number, headers: Buffer[], resume: () => void, statusText: string): boolean {
    return this.#handler.onHeaders!(status, headers, resume, statusText);
  }

  onData(chunk: Buffer): boolean {
    return this.#handler.onData!(chunk);
  }

  onComplete(trailers: string[] | null): void {
    this.#handler.onComplete!(trailers);
  }

  onError(error: Error): void {
    this.#stopListening();
    if (this.#answered) return;
    this.#answered = true;
    this.#handler.onError!(error);
  }

  #stopListening(): void {
    if (!this.#listening) return;
    this.#listening = false;
    this.#request.signal.removeEventListener('abort', this);
  }
}

export class ProviderPool extends Pool {
  override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    return super.dispatch(options, new Departure(handler, options as ProviderRequest));
  }
}
