// bench/submission.ts's baseline: a bare smtp-server with the same TLS and AUTH as Herald's listener,
// that parses each message with mailparser and does nothing else.
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

const MAX_MESSAGE_BYTES = 20 * 1024 * 1024;

const PARSE_OPTIONS = {
  keepCidLinks: true,
  skipHtmlToText: true,
  skipTextToHtml: true,
  skipTextLinks: true,
  skipImageLinks: true,
} as const;

/** The baseline: smtp-server with the same STARTTLS certificate and AUTH (any password), SIZE 20 MiB; each message parsed by mailparser, then 250. */
export async function startBareServer(certificate: { cert: string; key: string }) {
  const { simpleParser } = await import('mailparser');
  const server = new SMTPServer({
    name: 'submit.bench.example.test',
    key: certificate.key,
    cert: certificate.cert,
    authMethods: ['PLAIN', 'LOGIN'],
    size: MAX_MESSAGE_BYTES,
    rejectOversized: true,
    disableReverseLookup: true,
    hideENHANCEDSTATUSCODES: false,
    hideDSN: true,
    logger: false,
    onAuth(_auth, _session, callback) {
      callback(null, { user: 'bench' });
    },
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        simpleParser(Buffer.concat(chunks), PARSE_OPTIONS).then(
          () => callback(null, 'Message accepted'),
          (error: Error) => callback(error),
        );
      });
    },
  });
  server.on('error', () => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.server.address() as AddressInfo).port,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
