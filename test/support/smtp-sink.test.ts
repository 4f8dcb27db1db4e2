// The SMTP sink's view of its clients (test/support/smtp-sink.ts): several addresses on one port, the
// connection log (address, messages, QUIT), peaks per address, and the per-address behaviours
// (maxConnections, stalls), driven by nodemailer's SMTP client as Herald's transports are.
import nodemailer from 'nodemailer';
import SMTPConnection from 'nodemailer/lib/smtp-connection';
import { afterEach, describe, expect, test } from 'vitest';
import { SmtpSink } from './smtp-sink.ts';

const A = '127.0.0.31';
const B = '127.0.0.32';

const sinks: SmtpSink[] = [];
afterEach(async () => {
  await Promise.all(sinks.splice(0).map((sink) => sink.close()));
});

async function startSink(): Promise<SmtpSink> {
  const sink = await SmtpSink.start({ hosts: [A, B], starttls: false });
  sinks.push(sink);
  return sink;
}

const envelope = { from: 'sender@sender.test', to: ['reader@reader.test'] };
const raw = (n: number) =>
  Buffer.from(`From: sender@sender.test\r\nTo: reader@reader.test\r\nSubject: ${n}\r\n\r\nMessage ${n}.\r\n`);

/** A connected client session; rejects with the error of the greeting (or its absence). */
function open(host: string, port: number, greetingTimeout = 5_000): Promise<SMTPConnection> {
  const connection = new SMTPConnection({
    host,
    port,
    name: 'client.sender.test',
    ignoreTLS: true,
    connectionTimeout: 5_000,
    greetingTimeout,
    socketTimeout: 10_000,
  });
  return new Promise((resolve, reject) => {
    connection.once('error', reject);
    connection.connect(() => {
      connection.removeListener('error', reject);
      // Later errors are the test's business (it looks at the replies).
      connection.on('error', () => {});
      resolve(connection);
    });
  });
}

function send(connection: SMTPConnection, n: number): Promise<SMTPConnection.SentMessageInfo> {
  return new Promise((resolve, reject) => {
    connection.send(envelope, raw(n), (error, info) => (error ? reject(error) : resolve(info)));
  });
}

/** QUIT, then wait for the server to close. */
function quit(connection: SMTPConnection): Promise<void> {
  return new Promise((resolve) => {
    connection.once('end', () => resolve());
    connection.quit();
  });
}

describe('SMTP sink: what a receiver saw of its clients', () => {
  test('listens on every address on one port and tells the destinations apart', async () => {
    const sink = await startSink();
    expect(sink.hosts).toEqual([A, B]);
    expect(sink.url).toBe(`smtp://${A}:${sink.port}`);
    // One pool per destination, as a bare MTA loop would do it.
    const pools = [A, B].map((host) =>
      nodemailer.createTransport({ pool: true, maxConnections: 2, host, port: sink.port, ignoreTLS: true }),
    );
    await Promise.all(
      pools.flatMap((pool, p) =>
        Array.from({ length: 10 }, (_, i) => pool.sendMail({ envelope, raw: raw(p * 10 + i) })),
      ),
    );
    for (const pool of pools) pool.close();
    await sink.waitFor((s) => s.openConnections === 0, 'every connection closed');

    expect(sink.messages).toHaveLength(20);
    expect(sink.connections).toHaveLength(4);
    expect(sink.connections.filter((c) => c.localAddress === A)).toHaveLength(2);
    expect(sink.connections.filter((c) => c.localAddress === B)).toHaveLength(2);
    expect(sink.connections.every((c) => c.closedAt !== null && c.closedAt >= c.openedAt && !c.refused)).toBe(true);
    expect(sink.connections.reduce((sum, c) => sum + c.messages, 0)).toBe(20);
    // Averaged over the connections that carried a message (both of each pool, almost always).
    expect(sink.messagesPerConnection()).toBe(20 / sink.connections.filter((c) => c.messages > 0).length);
    expect(sink.peakConnectionsByAddress()).toEqual(
      new Map([
        [A, 2],
        [B, 2],
      ]),
    );
    expect(sink.peakConnections).toBe(4);

    sink.reset();
    expect(sink.connections).toEqual([]);
    expect(sink.peakConnections).toBe(0);
    expect(sink.messagesPerConnection()).toBe(0);
  });

  test('records whether the client said QUIT before closing', async () => {
    const sink = await startSink();
    const polite = await open(A, sink.port);
    await send(polite, 1);
    await send(polite, 2);
    await quit(polite);
    const rude = await open(B, sink.port);
    await send(rude, 3);
    rude.close();
    await sink.waitFor((s) => s.openConnections === 0, 'both connections closed');

    expect(sink.connections.map((c) => ({ address: c.localAddress, quit: c.quit, messages: c.messages }))).toEqual([
      { address: A, quit: true, messages: 2 },
      { address: B, quit: false, messages: 1 },
    ]);
    expect(sink.quitCount).toBe(1);
    expect(sink.messagesPerConnection()).toBe(1.5);
  });

  test('maxConnections answers the connection beyond the limit 421 at greeting, on that address only', async () => {
    const sink = await startSink();
    sink.setBehaviour({ maxConnections: 1 }, A);
    const first = await open(A, sink.port);
    const refused = await open(A, sink.port).then(
      () => null,
      (error: { responseCode?: number; response?: string }) => error,
    );
    expect(refused?.responseCode).toBe(421);
    expect(refused?.response).toBe('421 4.7.0 Too many connections');
    const other = await open(B, sink.port);
    await send(other, 1);
    await quit(other);
    await quit(first);
    // Room again once the first has gone.
    const again = await open(A, sink.port);
    await send(again, 2);
    await quit(again);
    await sink.waitFor((s) => s.openConnections === 0, 'every connection closed');

    expect(sink.connections.map((c) => [c.localAddress, c.refused])).toEqual([
      [A, false],
      [A, true],
      [B, false],
      [A, false],
    ]);
    // The refused connection was open beside the first for a moment: the receiver saw two at once.
    expect(sink.peakConnectionsByAddress().get(A)).toBe(2);
    expect(sink.messages).toHaveLength(2);
  });

  test('stall at greeting: the client times out; lifted, a waiting client is greeted', async () => {
    const sink = await startSink();
    sink.setBehaviour({ stall: 'greeting' }, A);
    await expect(open(A, sink.port, 300)).rejects.toMatchObject({ code: 'ETIMEDOUT' });
    await sink.waitFor((s) => s.stalledCount === 0 && s.openConnections === 0, 'the stalled client gone');

    const waiting = open(A, sink.port);
    await sink.waitFor((s) => s.stalledCount === 1, 'a stalled greeting');
    // The other address greets as usual meanwhile.
    await quit(await open(B, sink.port));
    sink.setBehaviour(null, A);
    const greeted = await waiting;
    await send(greeted, 1);
    await quit(greeted);
    expect(sink.messages).toHaveLength(1);
  });

  test('stall at DATA: no reply until lifted, then the message is accepted', async () => {
    const sink = await startSink();
    sink.setBehaviour({ stall: 'data' });
    const connection = await open(B, sink.port);
    const sent = send(connection, 1);
    await sink.waitFor((s) => s.stalledCount === 1, 'a stalled DATA');
    expect(sink.messages).toHaveLength(0);
    sink.setBehaviour(null);
    await expect(sent).resolves.toMatchObject({ accepted: envelope.to });
    expect(sink.messages).toHaveLength(1);
    expect(sink.connections[0]!.messages).toBe(1);
    await quit(connection);
  });

  test('close() answers a stalled client 421 instead of waiting for it', async () => {
    const sink = await SmtpSink.start({ hosts: [A], starttls: false, behaviour: { stall: 'data' } });
    const connection = await open(A, sink.port);
    const sent = send(connection, 1);
    await sink.waitFor((s) => s.stalledCount === 1, 'a stalled DATA');
    const closed = sink.close();
    await expect(sent).rejects.toMatchObject({ responseCode: 421 });
    await closed;
    expect(sink.messages).toHaveLength(0);
  });
});
