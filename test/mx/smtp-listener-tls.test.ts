// STARTTLS on the inbound SMTP listener: the upgrade with the configured certificate, checked by the
// client, and neither STARTTLS nor AUTH offered without one.
import nodemailer from 'nodemailer';
import { beforeAll, describe, expect, it } from 'vitest';
import { listenerTestBed, OWNED, selfSignedCertificate } from './listener-support.ts';
import { RawClient } from './raw-smtp-client.ts';

const { received, start } = listenerTestBed();

describe('STARTTLS', () => {
  let cert: string;
  let key: string;

  beforeAll(() => {
    ({ cert, key } = selfSignedCertificate());
  });

  it('upgrades with the configured certificate (checked by the client) and marks the message secure', async () => {
    const { port } = await start({ tls: { cert, key } });
    const transport = nodemailer.createTransport({
      host: '127.0.0.1',
      port,
      secure: false,
      requireTLS: true,
      tls: { ca: [cert], servername: 'localhost' },
    });
    const info = await transport.sendMail({
      envelope: { from: 'a@remote.test', to: [OWNED] },
      raw: 'Subject: tls\r\n\r\nover TLS\r\n',
    });
    expect(info.accepted).toEqual([OWNED]);
    expect(received[0]!.secure).toBe(true);
    transport.close();
  });

  it('offers neither STARTTLS nor AUTH without a certificate', async () => {
    const { port } = await start();
    const client = await RawClient.connect(port);
    expect((await client.read()).code).toBe(220);
    const ehlo = await client.command('EHLO client.test');
    expect(ehlo.text).not.toMatch(/STARTTLS|AUTH/);
    expect((await client.command('STARTTLS')).code).toBeGreaterThanOrEqual(500);
    expect((await client.command('AUTH PLAIN AGFsaWNlAHNlY3JldA==')).code).toBeGreaterThanOrEqual(500);
    client.close();
  });
});
