// `herald start` and `herald smtp` run SMTP submission: on the embedded default with a self-signed
// certificate made once in the data directory, its fingerprint printed at every start and the same
// after a restart; an application's message sent over STARTTLS is stored with source "smtp".
import { X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import nodemailer from 'nodemailer';
import { afterEach, expect, it } from 'vitest';
import { describeEmbedded } from '../support/embedded-only.ts';
import {
  cleanUpHeralds,
  freePort,
  heraldEnv,
  http,
  makeDataDir,
  startHerald,
  until,
  waitForBanner,
  waitForExit,
  waitForHealthy,
} from '../support/spawn.ts';
import { RawClient } from './raw-client.ts';

afterEach(cleanUpHeralds);

const fingerprintIn = (stdout: string) => /SHA-256 fingerprint:\s+([0-9A-F:]{95})/.exec(stdout)?.[1];

describeEmbedded('herald start with SMTP submission', () => {
  it('prints the port and the self-signed certificate fingerprint, keeps the certificate, and stores what an application sends', async () => {
    const dataDir = makeDataDir();
    const [port, submissionPort] = [await freePort(), await freePort()];
    const env = heraldEnv(dataDir, port, { LOG_LEVEL: 'warn', HERALD_SUBMISSION_PORT: String(submissionPort) });
    const first = startHerald(['start'], env);
    await waitForHealthy(first, port, 180_000);
    const { key } = await waitForBanner(first);
    const certFile = path.join(dataDir, 'submission-tls', 'cert.pem');
    const cert = fs.readFileSync(certFile, 'utf8');
    expect(first.stdout()).toContain(`SMTP submission: port ${submissionPort} (STARTTLS)`);
    expect(fingerprintIn(first.stdout())).toBe(new X509Certificate(cert).fingerprint256);

    // The first team may send from Herald's own domain to its members: the owner.
    const owner = /owner (\S+@\S+)/.exec(first.stdout())![1]!;
    const info = await nodemailer
      .createTransport({
        host: 'localhost',
        port: submissionPort,
        requireTLS: true,
        tls: { ca: cert },
        auth: { user: 'herald', pass: key },
      })
      .sendMail({
        from: 'WordPress <wordpress@herald.localhost>',
        to: owner,
        subject: 'New comment',
        text: 'A comment.',
      });
    const id = /(em_\S+)/.exec(info.response)![1]!;
    const email = await http(port, 'GET', `/api/v1/emails/${id}`, key);
    expect(email.status).toBe(200);
    expect(email.body).toMatchObject({ source: 'smtp', subject: 'New comment', to: owner });
    const metrics = await http(port, 'GET', '/metrics');
    expect(metrics.text).toContain('herald_submission_messages_accepted_total{result="stored"} 1');

    first.kill('SIGTERM');
    expect((await waitForExit(first, 60_000)).code).toBe(0);
    const second = startHerald(['start'], env);
    await waitForHealthy(second, port, 180_000);
    await until('the submission lines', 30_000, async () => fingerprintIn(second.stdout()));
    expect(fingerprintIn(second.stdout())).toBe(fingerprintIn(first.stdout()));
    expect(fs.readFileSync(certFile, 'utf8')).toBe(cert);
  }, 300_000);

  it('herald smtp listens for submission beside the inbound listener', async () => {
    const dataDir = makeDataDir();
    const [port, smtpPort, submissionPort] = [await freePort(), await freePort(), await freePort()];
    const smtp = startHerald(
      ['smtp'],
      heraldEnv(dataDir, port, {
        LOG_LEVEL: 'warn',
        HERALD_SMTP_PORT: String(smtpPort),
        HERALD_SUBMISSION_PORT: String(submissionPort),
      }),
    );
    await waitForHealthy(smtp, port, 180_000);
    await until('the submission lines', 30_000, async () => fingerprintIn(smtp.stdout()));
    const client = await RawClient.connect(submissionPort);
    expect((await client.read()).text).toMatch(/^220 .* ESMTP Herald submission$/);
    const ehlo = await client.command('EHLO app.test');
    expect(ehlo.text).toContain('AUTH PLAIN LOGIN');
    expect(ehlo.text).toContain('STARTTLS');
    client.close();
  }, 200_000);
});
