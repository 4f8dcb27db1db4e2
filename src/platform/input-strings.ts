// One check where strings enter: every parsed body, path parameter and query value, before any
// route validates or stores it. PostgreSQL cannot store two kinds of string: a NUL character
// (text refuses the byte, jsonb the \u0000 escape) and a lone UTF-16 surrogate (not valid Unicode:
// jsonb refuses it, text would store U+FFFD in its place). Refused here, with the field named, so no
// route answers 500 for them and none has to check them field by field.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { badRequest } from './errors.ts';

interface Unstorable {
  /** The field as error messages name it elsewhere: `subject`, `0.to`, `params.id`, `query.emails`. */
  field: string;
  reason: string;
}

const NUL_REASON = 'must not contain NUL (\\u0000) characters';
const SURROGATE_REASON = 'must not contain unpaired UTF-16 surrogates (invalid Unicode)';

function reasonFor(text: string): string | null {
  if (text.includes('\u0000')) return NUL_REASON;
  if (!text.isWellFormed()) return SURROGATE_REASON;
  return null;
}

/** The first string (or object key) in `value` that PostgreSQL could not store, or null. */
export function findUnstorableString(value: unknown, root: string): Unstorable | null {
  // Iterative, so a deeply nested body cannot exhaust the stack.
  const pending: Array<{ value: unknown; field: string }> = [{ value, field: root }];
  while (pending.length > 0) {
    const { value: current, field } = pending.pop()!;
    if (typeof current === 'string') {
      const reason = reasonFor(current);
      if (reason !== null) return { field, reason };
    } else if (Array.isArray(current)) {
      for (let index = current.length - 1; index >= 0; index--) {
        pending.push({ value: current[index], field: join(field, String(index)) });
      }
    } else if (current !== null && typeof current === 'object') {
      const entries = Object.entries(current);
      for (let index = entries.length - 1; index >= 0; index--) {
        const [key, child] = entries[index]!;
        // A bad key is named by its parent: echoing it back would carry the bad character.
        const keyReason = reasonFor(key);
        if (keyReason !== null) return { field: field === '' ? 'body' : field, reason: `keys ${keyReason}` };
        pending.push({ value: child, field: join(field, key) });
      }
    }
  }
  return null;
}

function join(parent: string, key: string): string {
  return parent === '' ? key : `${parent}.${key}`;
}

function checkRequest(request: FastifyRequest): void {
  // Body fields are named bare (`subject`), as validation errors name them; others by their part.
  const found =
    findUnstorableString(request.params, 'params') ??
    findUnstorableString(request.query, 'query') ??
    (typeof request.body === 'string'
      ? findUnstorableString(request.body, 'body')
      : findUnstorableString(request.body, ''));
  if (found !== null) throw badRequest(`${found.field}: ${found.reason}`);
}

/** Registered on the root app, so it runs for every route, before the route's own validation. */
export function registerInputStringCheck(app: FastifyInstance): void {
  app.addHook('preValidation', (request, _reply, done) => {
    try {
      checkRequest(request);
    } catch (error) {
      return done(error as Error);
    }
    done();
  });
}
