// One POST to a provider's API with a deadline. Answers the status and the start of the body, or
// the reason nothing came back (which the adapters turn into `retry`).
import { Agent, request, type Dispatcher } from 'undici';
import { deadline } from '../../platform/deadline.ts';

export const PROVIDER_TIMEOUT_MS = 15_000;
const BODY_MAX = 64 * 1024;

export interface ProviderAnswer {
  status: number;
  text: string;
}

export interface ProviderHttp {
  post(url: string, headers: Record<string, string>, body: string): Promise<ProviderAnswer | { error: string }>;
  close(): Promise<void>;
}

export function createProviderHttp(timeoutMs = PROVIDER_TIMEOUT_MS): ProviderHttp {
  const agent: Dispatcher = new Agent({ keepAliveTimeout: 30_000, connectTimeout: timeoutMs });
  return {
    async post(url, headers, body) {
      const limit = deadline(timeoutMs);
      try {
        const response = await request(url, {
          method: 'POST',
          headers,
          body,
          dispatcher: agent,
          signal: limit.signal,
          headersTimeout: timeoutMs,
          bodyTimeout: timeoutMs,
        });
        // A body that says its length and is small enough is read whole, the common answer's cheaper path.
        const length = Number(response.headers['content-length']);
        if (length <= BODY_MAX) return { status: response.statusCode, text: await response.body.text() };
        const chunks: Buffer[] = [];
        let size = 0;
        for await (const chunk of response.body) {
          size += (chunk as Buffer).length;
          if (size > BODY_MAX) {
            response.body.destroy();
            break;
          }
          chunks.push(chunk as Buffer);
        }
        return { status: response.statusCode, text: Buffer.concat(chunks).toString('utf8') };
      } catch (error) {
        return { error: describe(error, timeoutMs) };
      } finally {
        limit.done();
      }
    },
    close: () => agent.close(),
  };
}

function describe(error: unknown, timeoutMs: number): string {
  if (!(error instanceof Error)) return String(error);
  if (error.name === 'TimeoutError' || error.name === 'AbortError' || /timeout/i.test(error.name)) {
    return `no answer within ${timeoutMs / 1000} s`;
  }
  const code = (error as { code?: string }).code;
  const cause = (error as { cause?: unknown }).cause;
  return `${code ? `${code} ` : ''}${error.message}${cause instanceof Error ? `: ${cause.message}` : ''}`.slice(0, 300);
}

/** JSON.parse that answers undefined instead of throwing: provider error bodies are not always JSON. */
export function tryJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export function header(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const value = headers[name] ?? headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}
