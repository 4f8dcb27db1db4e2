// The webhook tests' harness: the email harness (real app, loopback DNS, verified domains) configured
// as an operator would for development: loopback exempted from the public-address rule
// (HERALD_WEBHOOK_ALLOW_CIDRS) and the test CA trusted (HERALD_WEBHOOK_CA_FILE); a loopback HTTPS
// receiver reached by name through the DNS server; and the worker's real lanes and queues.
import { heraldMailSigner } from '../../src/worker.ts';
import type { Config } from '../../src/config.ts';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { QueueRunner } from '../../src/queue/index.ts';
import { WebhookDispatcher } from '../../src/webhooks/dispatcher.ts';
import { createWebhookAgent } from '../../src/webhooks/http-agent.ts';
import { teamNoticesQueue } from '../../src/notices/notices-queue.ts';
import { startEmailHarness, type EmailHarness, type SendingTeam } from '../emails/support.ts';
import { TestDnsServer } from '../support/dns-server.ts';
import { bearer } from '../support/factory.ts';
import { HttpsReceiver } from '../support/https-receiver.ts';

export interface WebhookHarness {
  h: EmailHarness;
  dns: TestDnsServer;
  receiver: HttpsReceiver;
  runner: QueueRunner;
  /** https://<name>.hooks.test:<port>/path, the name answering 127.0.0.1. */
  url(name?: string, path?: string): string;
  request(
    key: string,
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    path: string,
    payload?: unknown,
  ): Promise<LightMyRequestResponse>;
  /** Wake the runner and wait until nothing is due and nothing is in flight. */
  settle(): Promise<void>;
  close(): Promise<void>;
}

let names = 0;

export async function startWebhookHarness(
  options: { requestTimeoutMs?: number; dispatch?: boolean; config?: Partial<Config> } = {},
): Promise<WebhookHarness> {
  const dns = await TestDnsServer.start();
  const receiver = await HttpsReceiver.start();
  const h = await startEmailHarness({
    dns,
    config: { webhookAllowCidrs: ['127.0.0.0/8'], webhookCaFile: receiver.caFile, ...options.config },
  });
  const deps = h.t.deps;
  const agent = createWebhookAgent({
    dns: deps.dns,
    allowCidrs: deps.config.webhookAllowCidrs,
    caFile: deps.config.webhookCaFile,
  });
  const runner = new QueueRunner({
    database: deps.database,
    queues: [
      teamNoticesQueue({
        transport: deps.mailTransport,
        mailDomain: deps.config.mailDomain,
        sign: heraldMailSigner(deps),
      }),
    ],
    lanes:
      options.dispatch === false
        ? []
        : [
            new WebhookDispatcher({
              db: deps.db,
              clock: h.t.clock,
              secrets: deps.secrets,
              transport: agent,
              logger: deps.logger,
              pollMs: 50,
              ...(options.requestTimeoutMs === undefined ? {} : { requestTimeoutMs: options.requestTimeoutMs }),
            }),
          ],
    clock: h.t.clock,
    pollMs: 50,
  });
  await runner.start();
  return {
    h,
    dns,
    receiver,
    runner,
    url(name = `h${++names}`, path = '/hook') {
      dns.set(`${name}.hooks.test`, 'A', [{ type: 'A', address: '127.0.0.1' }]);
      return `https://${name}.hooks.test:${receiver.port}${path}`;
    },
    async request(key, method, path, payload) {
      return h.app.inject({
        method,
        url: `/api${path}`,
        headers: bearer(key),
        ...(payload === undefined ? {} : { payload: payload as object }),
      });
    },
    async settle() {
      runner.wake();
      await runner.idle();
    },
    async close() {
      await runner.stop();
      await h.close();
      await receiver.close();
      await dns.close();
    },
  };
}

/** The harness and a team on the pro plan: what the webhook API and delivery test files start from. */
export async function startWebhookTeam(
  options: Parameters<typeof startWebhookHarness>[0] = {},
): Promise<{ w: WebhookHarness; team: SendingTeam }> {
  const w = await startWebhookHarness(options);
  return { w, team: await w.h.team({ plan: 'pro' }) };
}

export async function createWebhook(
  w: WebhookHarness,
  key: string,
  body: Record<string, unknown>,
): Promise<{ id: string; secret: string; [k: string]: unknown }> {
  const response = await w.request(key, 'POST', '/v1/webhooks', body);
  expect(response.statusCode, JSON.stringify(response.json())).toBe(201);
  return response.json();
}

/** A webhook call as the API shows it (contract: Webhook call). */
export interface CallJson {
  id: string;
  webhookId: string;
  type: string;
  status: string;
  attempt: number;
  nextAttemptAt: string | null;
  lastError: string | null;
  responseStatus: number | null;
  responseTimeMs: number | null;
  payload?: string;
  responseText?: string | null;
}

export async function callsOf(w: WebhookHarness, key: string, webhookId: string): Promise<CallJson[]> {
  const response = await w.request(key, 'GET', `/v1/webhooks/calls?webhookId=${webhookId}&limit=50`);
  expect(response.statusCode).toBe(200);
  return response.json().data;
}

export type DeliverySuite = Awaited<ReturnType<typeof startDeliverySuite>>;

/** The delivery tests' harness (requests time out after 1.5 s), its team, and the team's reads of calls. */
export async function startDeliverySuite() {
  const { w, team } = await startWebhookTeam({ requestTimeoutMs: 1_500 });
  const call = async (id: string): Promise<CallJson & { payload: string }> => {
    const response = await w.request(team.key, 'GET', `/v1/webhooks/calls/${id}`);
    expect(response.statusCode).toBe(200);
    return response.json();
  };
  const testEvent = async (webhookId: string): Promise<string> => {
    const response = await w.request(team.key, 'POST', `/v1/webhooks/${webhookId}/test`);
    expect(response.statusCode).toBe(202);
    return response.json().callId;
  };
  return { w, team, call, testEvent };
}

/** Before each delivery test: a receiver answering 200 with nothing received, in a fresh minute (the
 * team's 10 test events a minute would otherwise run out across tests). */
export function freshMinute(w: WebhookHarness): void {
  w.h.t.clock.advance(61_000);
  w.receiver.reset();
  w.receiver.respondWith({ status: 200 });
}
