// Property: no request answers 5xx. For every operation of the app's own OpenAPI document, requests
// generated from its schemas (bodies, path parameters, query values; valid, at the limits, past them,
// hostile) with a valid key (the admin token for /admin) answer below 500. Seeded, so a run repeats;
// a few hundred requests in all. New routes are covered as soon as they are in the document.
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { TEST_ADMIN_TOKEN } from '../support/app.ts';
import { bearer, createTeam, type TestTeam } from '../support/factory.ts';
import { operationsOf, requestFor, type GeneratedRequest, type Operation } from '../support/openapi-arbitraries.ts';
import { hostileString, type GeneratorContext } from '../support/schema-arbitraries.ts';
import { emails, startEmailHarness, type EmailHarness, type SendingTeam } from '../emails/support.ts';

const SEED = Number(process.env.FUZZ_SEED ?? 20_261_125);
const RUNS_PER_OPERATION = Number(process.env.FUZZ_RUNS ?? 5);

let h: EmailHarness;
let team: SendingTeam;
/** The team admin routes act on: its members and keys may be changed or deleted by the fuzzer. */
let adminTeam: TestTeam;
const realIds = new Map<string, string[]>();

async function created(method: 'POST', url: string, payload: unknown): Promise<Record<string, unknown>> {
  const response = await h.app.inject({
    method,
    url: `/api${url}`,
    headers: bearer(team.key),
    payload: payload as object,
  });
  if (response.statusCode >= 300) throw new Error(`${url}: ${response.statusCode} ${response.body}`);
  return response.json();
}

beforeAll(async () => {
  h = await startEmailHarness();
  team = await h.team({ plan: 'pro' });
  adminTeam = await createTeam(h.app);
  const template = await created('POST', '/v1/templates', {
    name: 'Welcome',
    subject: 'Hi {{name}}',
    html: '<p>x</p>',
  });
  const book = await created('POST', '/v1/contactBooks', { name: 'Readers' });
  const contact = await created('POST', `/v1/contactBooks/${book.id}/contacts`, { email: 'reader@example.com' });
  const emailId = await emails(h.app, team.key).sent({
    from: team.from(),
    to: 'a@example.com',
    subject: 'Hi',
    text: 'x',
  });
  const spareKey = await adminTeam.makeKey('sending');
  const member = await adminTeam.addMember('MEMBER');
  realIds.set('id', [String(team.domain.id)]);
  realIds.set('templateId', [String(template.id)]);
  realIds.set('contactBookId', [String(book.id)]);
  realIds.set('contactId', [String(contact.id)]);
  realIds.set('emailId', [emailId]);
  realIds.set('teamId', [String(adminTeam.id)]);
  realIds.set('memberId', [String(member)]);
  realIds.set('keyId', [spareKey.id]);
  realIds.set('email', ['reader@example.com']);
});
afterAll(async () => h.close());

function pathValue(operation: Operation) {
  return (name: string, clean: boolean): fc.Arbitrary<string> => {
    // Deletes get made-up ids only (the admin team excepted), so one run cannot remove what the next uses.
    const real = operation.method === 'DELETE' && name !== 'teamId' ? [] : (realIds.get(name) ?? []);
    if (clean) return real.length > 0 ? fc.constantFrom(...real) : fc.string({ minLength: 1, maxLength: 30 });
    const made: fc.Arbitrary<string>[] = [
      hostileString,
      fc.string({ minLength: 1, maxLength: 30 }),
      fc.integer({ min: -5, max: 2 ** 40 }).map(String),
    ];
    return real.length > 0
      ? fc.oneof(
          { weight: 2, arbitrary: fc.constantFrom(...real) },
          ...made.map((arbitrary) => ({ weight: 1, arbitrary })),
        )
      : fc.oneof(...made);
  };
}

/** Likely values by property name, so clean requests reach the handlers, not only validation. */
function likelyValues(): Record<string, fc.Arbitrary<unknown>> {
  const address = fc.constantFrom('a@example.com', 'Ada <ada@example.com>', 'reader@example.com');
  const addresses = fc.oneof(address, fc.array(address, { minLength: 1, maxLength: 3 }));
  const id = (name: string) => fc.constantFrom(...(realIds.get(name) ?? ['none']));
  return {
    from: fc.constantFrom(team.from(), `Sender <${team.from('news')}>`),
    doubleOptInFrom: fc.constantFrom(team.from(), null),
    to: fc.oneof(addresses, fc.constantFrom('+14155550100', '+2348012345678')),
    cc: addresses,
    bcc: addresses,
    replyTo: addresses,
    email: fc.oneof(fc.constantFrom('reader@example.com'), fc.emailAddress()),
    html: fc.constantFrom('<p>Hello {{name}}</p>', '<b>x</b><script>y</script>'),
    text: fc.constantFrom('Hello', 'Hello {{name}}'),
    templateId: id('templateId'),
    contactBookId: id('contactBookId'),
    contactIds: id('contactId').map((value) => [value]),
    domainId: fc.constantFrom(team.domain.id, String(team.domain.id)),
    teamId: fc.constant(adminTeam.id),
    memberId: fc.constant(Number(realIds.get('memberId')![0])),
    url: fc.constantFrom('https://hooks.example.com/in', 'https://127.0.0.1/x'),
    subject: fc.constantFrom('Hello', 'Hi {{name}}'),
    scheduledAt: fc.integer({ min: -3600, max: 86_400 * 3 }).map((s) => new Date(Date.now() + s * 1000).toISOString()),
    variables: fc.constant({ name: 'Ada' }),
    headers: fc.constant({ 'X-Tag': 'spring' }),
    attachments: fc.constant([{ filename: 'a.txt', content: 'aGk=' }]),
  };
}

function headersFor(request: GeneratedRequest): Record<string, string> {
  const headers: Record<string, string> = {};
  if (request.url.startsWith('/admin/')) Object.assign(headers, bearer(TEST_ADMIN_TOKEN));
  else if (request.url.startsWith('/api/')) Object.assign(headers, bearer(team.key));
  if (request.payload !== undefined) headers['content-type'] = 'application/json';
  if (request.idempotencyKey !== null) headers['idempotency-key'] = request.idempotencyKey;
  return headers;
}

it('no generated request to any operation answers 5xx', { timeout: 180_000 }, async () => {
  const document = h.app.swagger() as unknown as { paths: Record<string, Record<string, unknown>> };
  const operations = operationsOf(document);
  expect(operations.length).toBeGreaterThan(50);
  const context: GeneratorContext = {
    goodStrings: [team.from(), `Sender <${team.from()}>`, 'someone@example.com', ...[...realIds.values()].flat()],
    byName: likelyValues(),
  };
  const failures: string[] = [];
  let sent = 0;
  for (const [index, operation] of operations.entries()) {
    const requests = fc.sample(requestFor(operation, context, pathValue(operation)), {
      seed: SEED + index,
      numRuns: RUNS_PER_OPERATION,
    });
    for (const request of requests) {
      const response = await h.app.inject({
        method: request.method as 'GET',
        url: request.url,
        headers: headersFor(request),
        ...(request.payload === undefined ? {} : { payload: JSON.stringify(request.payload) }),
      });
      sent++;
      if (response.statusCode >= 500) {
        const body = JSON.stringify(request.payload) ?? '';
        failures.push(
          `${request.method} ${request.url.slice(0, 300)} body=${body.slice(0, 500)} -> ${response.statusCode} ${response.body.slice(0, 300)}`,
        );
      }
    }
  }
  expect(sent).toBe(operations.length * RUNS_PER_OPERATION);
  expect(failures).toEqual([]);
});
