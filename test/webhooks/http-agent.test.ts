// The webhook transport against a real HTTPS receiver and the loopback DNS server: connections go
// only to checked addresses (never to a name that has turned private, pooled or not), TLS is
// verified against the name with the operator's CA file, redirects are not followed, the connect
// timeout fires, and keep-alive connections are reused.
import net from 'node:net';
import { request } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createDnsResolver, type DnsResolver } from '../../src/adapters/dns.ts';
import { createWebhookAgent, type WebhookAgent, type WebhookAgentOptions } from '../../src/webhooks/http-agent.ts';
import { UnsafeWebhookHostError } from '../../src/webhooks/url-safety.ts';
import { TestDnsServer } from '../support/dns-server.ts';
import { HttpsReceiver } from '../support/https-receiver.ts';

let dnsServer: TestDnsServer;
let dns: DnsResolver;
let receiver: HttpsReceiver;
const agents: WebhookAgent[] = [];

beforeAll(async () => {
  dnsServer = await TestDnsServer.start();
  dns = createDnsResolver({ servers: [dnsServer.address], timeoutMs: 500, tries: 1 });
  receiver = await HttpsReceiver.start();
});
afterEach(async () => {
  await Promise.all(agents.splice(0).map(async (agent) => (await agent.dispatcher()).destroy()));
  receiver.reset();
  receiver.respondWith({ status: 200 });
});
afterAll(async () => {
  await receiver.close();
  await dnsServer.close();
});

function pointAt(name: string, ...addresses: string[]) {
  dnsServer.set(
    name,
    'A',
    addresses.map((address) => ({ type: 'A', address })),
  );
}

function agentFor(options: Partial<WebhookAgentOptions> = {}): WebhookAgent {
  const agent = createWebhookAgent({
    dns,
    allowCidrs: ['127.0.0.0/8'],
    caFile: receiver.caFile,
    ...options,
  });
  agents.push(agent);
  return agent;
}

async function post(agent: WebhookAgent, url: string) {
  await agent.checkHost(new URL(url).hostname);
  const response = await request(url, {
    method: 'POST',
    dispatcher: await agent.dispatcher(),
    headers: { 'content-type': 'application/json' },
    body: '{"type":"email.sent"}',
  });
  const body = await response.body.text();
  return { status: response.statusCode, headers: response.headers, body };
}

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => error as Error & { code?: string },
  );

describe('webhook agent', () => {
  it('delivers to a checked address, verifying TLS against the name with the CA file', async () => {
    pointAt('ok.hooks.test', '127.0.0.1');
    receiver.respondWith({ status: 201, body: 'thanks' });
    const result = await post(agentFor(), `https://ok.hooks.test:${receiver.port}/hook?x=1`);
    expect(result).toMatchObject({ status: 201, body: 'thanks' });
    expect(receiver.requests).toMatchObject([{ method: 'POST', path: '/hook?x=1', body: '{"type":"email.sent"}' }]);
    expect(receiver.requests[0]!.headers.host).toBe(`ok.hooks.test:${receiver.port}`);
  });

  it('fails TLS without the CA file, and for a name the certificate does not cover', async () => {
    pointAt('ok.hooks.test', '127.0.0.1');
    pointAt('other.elsewhere.test', '127.0.0.1');
    const untrusted = await failure(post(agentFor({ caFile: null }), `https://ok.hooks.test:${receiver.port}/`));
    expect(untrusted?.code).toMatch(/UNABLE_TO_GET_ISSUER_CERT|SELF_SIGNED|UNABLE_TO_VERIFY/);
    // The certificate also names IP 127.0.0.1: only checking against the name can refuse this.
    const wrongName = await failure(post(agentFor(), `https://other.elsewhere.test:${receiver.port}/`));
    expect(wrongName?.code).toBe('ERR_TLS_CERT_ALTNAME_INVALID');
    expect(receiver.count).toBe(0);
  });

  it('refuses at connect a name resolving to loopback when the allow list does not cover it', async () => {
    pointAt('loopy.hooks.test', '127.0.0.1');
    const agent = agentFor({ allowCidrs: [] });
    const error = await failure(
      request(`https://loopy.hooks.test:${receiver.port}/`, {
        method: 'POST',
        dispatcher: await agent.dispatcher(),
        body: '{}',
      }),
    );
    expect(error).toBeInstanceOf(UnsafeWebhookHostError);
    expect(error?.message).toBe('webhook host loopy.hooks.test resolves to a non-public address 127.0.0.1 (loopback)');
    await expect(agent.checkHost('loopy.hooks.test')).rejects.toBeInstanceOf(UnsafeWebhookHostError);
    expect(receiver.connections).toBe(0);
  });

  describe('a name that turns private after it was checked (DNS rebinding)', () => {
    // 127.0.0.2 stands in for a public address (the allow list covers only it); the receiver on
    // 127.0.0.1 is the private service the name is rebound to.
    let publicSide: HttpsReceiver;
    beforeAll(async () => {
      publicSide = await HttpsReceiver.start({ host: '127.0.0.2' });
    });
    afterAll(() => publicSide.close());
    afterEach(() => publicSide.reset());
    const allowCidrs = ['127.0.0.2/32'];

    it('is refused on a fresh connection and never reaches the private service', async () => {
      const name = 'rebind.hooks.test';
      pointAt(name, '127.0.0.2');
      const agent = agentFor({ allowCidrs });
      const first = await request(`https://${name}:${publicSide.port}/`, {
        method: 'POST',
        dispatcher: await agent.dispatcher(),
        body: '{}',
      });
      await first.body.text();
      expect(publicSide.count).toBe(1);
      await agent.close();

      pointAt(name, '127.0.0.1');
      const fresh = agentFor({ allowCidrs });
      const error = await failure(
        request(`https://${name}:${receiver.port}/`, {
          method: 'POST',
          dispatcher: await fresh.dispatcher(),
          body: '{}',
        }),
      );
      expect(error).toBeInstanceOf(UnsafeWebhookHostError);
      expect(error?.message).toMatch(/resolves to a non-public address 127\.0\.0\.1/);
      expect(receiver.connections).toBe(0);
      expect(receiver.count).toBe(0);
    });

    it('is refused by checkHost while a pooled connection still goes to the checked address only', async () => {
      const name = 'rebind-pooled.hooks.test';
      pointAt(name, '127.0.0.2');
      const agent = agentFor({ allowCidrs });
      await post(agent, `https://${name}:${publicSide.port}/`);
      pointAt(name, '127.0.0.1');
      await expect(agent.checkHost(name)).rejects.toThrow(/non-public address 127\.0\.0\.1/);
      // Even a caller that skipped the check would only reuse the connection to 127.0.0.2.
      const reused = await request(`https://${name}:${publicSide.port}/`, {
        method: 'POST',
        dispatcher: await agent.dispatcher(),
        body: '{}',
      });
      await reused.body.text();
      expect(publicSide.count).toBe(2);
      expect(publicSide.connections).toBe(1);
      expect(receiver.connections).toBe(0);
    });
  });

  it('does not follow redirects', async () => {
    pointAt('ok.hooks.test', '127.0.0.1');
    receiver.enqueue({ status: 302, headers: { location: `https://ok.hooks.test:${receiver.port}/elsewhere` } });
    const result = await post(agentFor(), `https://ok.hooks.test:${receiver.port}/hook`);
    expect(result.status).toBe(302);
    expect(receiver.requests.map((r) => r.path)).toEqual(['/hook']);
  });

  it('reuses a keep-alive connection for sequential requests', async () => {
    pointAt('ok.hooks.test', '127.0.0.1');
    const agent = agentFor();
    await post(agent, `https://ok.hooks.test:${receiver.port}/one`);
    await post(agent, `https://ok.hooks.test:${receiver.port}/two`);
    expect(receiver.count).toBe(2);
    expect(receiver.connections).toBe(1);
  });

  it('tries the next checked address when one refuses the connection', async () => {
    // Nothing listens on 127.0.0.3 at the receiver's port.
    pointAt('two-addresses.hooks.test', '127.0.0.3', '127.0.0.1');
    const result = await post(agentFor(), `https://two-addresses.hooks.test:${receiver.port}/`);
    expect(result.status).toBe(200);
  });

  it('resolves again at every check, even checks made together (the dispatcher shares one per batch)', async () => {
    pointAt('count.hooks.test', '127.0.0.1');
    const agent = agentFor();
    const asked = () => dnsServer.queries.filter((query) => query.includes('count.hooks.test')).length;
    await Promise.all([agent.checkHost('count.hooks.test'), agent.checkHost('count.hooks.test')]);
    expect(asked()).toBe(4); // an A and an AAAA query for each check
    await agent.checkHost('count.hooks.test');
    expect(asked()).toBe(6);
  });

  it('a name that turned private is refused at the very next check', async () => {
    pointAt('turned.hooks.test', '127.0.0.1');
    const agent = agentFor();
    await agent.checkHost('turned.hooks.test');
    pointAt('turned.hooks.test', '10.0.0.7');
    await expect(agent.checkHost('turned.hooks.test')).rejects.toThrow(/non-public/);
  });

  it('gives up connecting after 5 s by default', async () => {
    // Accepts TCP and then says nothing, so the TLS handshake never completes.
    const silent = net.createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      pointAt('silent.hooks.test', '127.0.0.1');
      const port = (silent.address() as net.AddressInfo).port;
      const started = performance.now();
      const error = await failure(post(agentFor(), `https://silent.hooks.test:${port}/`));
      const elapsed = performance.now() - started;
      expect(error?.code).toBe('UND_ERR_CONNECT_TIMEOUT');
      expect(elapsed).toBeGreaterThan(4_500);
      expect(elapsed).toBeLessThan(6_500);
    } finally {
      silent.close();
    }
  }, 10_000);
});

describe('HttpsReceiver behaviours', () => {
  it("'close' drops the socket and 'hang' never answers", async () => {
    pointAt('ok.hooks.test', '127.0.0.1');
    const agent = agentFor();
    receiver.enqueue('close', 'hang');
    const closed = await failure(post(agent, `https://ok.hooks.test:${receiver.port}/`));
    expect(closed?.code).toBe('UND_ERR_SOCKET');
    const hung = await failure(
      request(`https://ok.hooks.test:${receiver.port}/`, {
        method: 'POST',
        dispatcher: await agent.dispatcher(),
        body: '{}',
        headersTimeout: 300,
      }),
    );
    expect(hung?.code).toBe('UND_ERR_HEADERS_TIMEOUT');
    await receiver.waitForRequests(2, 1_000);
    receiver.enqueue({ status: 429, headers: { 'retry-after': '7' } });
    expect(await post(agent, `https://ok.hooks.test:${receiver.port}/`)).toMatchObject({
      status: 429,
      headers: { 'retry-after': '7' },
    });
  });
});
