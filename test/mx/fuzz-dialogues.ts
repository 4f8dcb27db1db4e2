// The seeded dialogues of the SMTP listener's fuzz test (smtp-fuzz.test.ts): a small PRNG, MIME broken
// the ways real bounces, spam and attacks are, whole dialogues as bytes cut into writes at random
// places, and a player that speaks one over a raw socket.
import net from 'node:net';

export const MAX_BYTES = 256 * 1024;
export const OWNED = ['bounce+a1.aaaaaaaaaaaaaaaa@bounces.test', 'bounce+b2.bbbbbbbbbbbbbbbb@bounces.test'];

/** mulberry32: small, fast, and the same sequence on every machine for one seed. */
export function prng(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  return {
    int,
    chance: (p: number) => next() < p,
    pick: <T>(items: readonly T[]): T => items[int(items.length)]!,
    bytes: (n: number) => Buffer.from(Array.from({ length: n }, () => int(256))),
  };
}
type Rng = ReturnType<typeof prng>;

const b = (text: string) => Buffer.from(text, 'latin1');
/** SMTP transparency (RFC 5321 4.5.2), so a broken body still arrives as the body it is. */
const dotStuff = (message: Buffer) => b(message.toString('latin1').replace(/(^|\r\n)\./g, '$1..'));

function envelope(rng: Rng): Buffer {
  const to = rng.chance(0.1) ? 'boom@bounces.test' : rng.pick(OWNED);
  return b(
    `EHLO fuzz.test\r\nMAIL FROM:<${rng.chance(0.3) ? '' : 'sender@remote.test'}>\r\nRCPT TO:<${to}>\r\nDATA\r\n`,
  );
}

/** MIME that is wrong in the ways real bounces, spam and attacks are wrong. */
function brokenMime(rng: Rng): Buffer {
  const boundary = `b${rng.int(1e6)}`;
  const variants: Array<() => string> = [
    () =>
      `Content-Type: multipart/mixed; boundary="${boundary}"\r\n\r\n--${boundary}\r\nContent-Type: text/plain\r\n\r\nno closing boundary\r\n`,
    () => `Content-Type: multipart/mixed; boundary="${boundary}"\r\n\r\nboundary declared, never used\r\n`,
    () =>
      `Content-Type: multipart/mixed; boundary="${boundary}\r\n\r\n--${boundary}\r\nunterminated quote\r\n--${boundary}--\r\n`,
    () => `Content-Type: multipart/mixed\r\n\r\n--\r\nno boundary parameter\r\n----\r\n`,
    () => `Content-Type: multipart/mixed; boundary=""\r\n\r\n--\r\nempty boundary\r\n----\r\n`,
    () =>
      `Content-Type: multipart/mixed; boundary=${boundary}\r\n\r\n--${boundary}\r\nContent-Type: multipart/alternative; boundary=${boundary}\r\n\r\n--${boundary}\r\nsame boundary nested\r\n--${boundary}--\r\n`,
    () =>
      `Content-Type: multipart/mixed; boundary=x\r\n\r\n${Array.from({ length: 60 }, (_, i) => `--x\r\nContent-Type: multipart/mixed; boundary=x${i}\r\n\r\n`).join('')}deep\r\n`,
    () =>
      `Content-Transfer-Encoding: base64\r\nContent-Type: application/octet-stream\r\n\r\n@@@!!!===abc==def*&^%$\r\n${rng.bytes(200).toString('latin1')}\r\n`,
    () =>
      `Content-Type: text/plain\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n=ZZ=0=\r\n=\r\n=E9=C3=28=FF\r\n`,
    () =>
      `Subject: =?utf-8?B?####?= =?x-unknown?Q?=ZZ?= =?utf-8?Q?unterminated\r\nFrom: "broken <@@>\r\nTo: ,,,<>\r\n\r\nbody\r\n`,
    () => `no colon in this header\r\n continuation with nothing before\r\n\tmore\r\nX-Nul: a\0b\0c\r\n\r\nbody\r\n`,
    () => `Content-Type: text/plain; charset="x-nonexistent-charset"\r\n\r\n${rng.bytes(300).toString('latin1')}\r\n`,
    () =>
      `Content-Type: application/pdf\r\nContent-Disposition: attachment; filename*=garbage''%%%ZZ%\r\nContent-Transfer-Encoding: x-unknown\r\n\r\nxx\r\n`,
    () =>
      `Content-Type: message/rfc822\r\n\r\nFrom: truncated@remote.test\r\nContent-Type: multipart/report; boundary=q\r\n\r\n--q\r\nContent-Type: message/delivery-status\r\n\r\nStatus: 5.x.y\r\n`,
    () =>
      `Content-Type: multipart/report; report-type=delivery-status; boundary=r\r\n\r\n--r\r\nContent-Type: message/delivery-status\r\n\r\nReporting-MTA: dns;\0\r\nFinal-Recipient: \xff\xfe\r\nStatus: 9.9.9.9\r\n--r\r\nContent-Type: text/rfc822-headers\r\n\r\n${rng.bytes(100).toString('latin1')}\r\n`,
    () => `X-Long: ${'h'.repeat(20_000 + rng.int(80_000))}\r\n\r\nenormous header line\r\n`,
    () => `${rng.bytes(50 + rng.int(2000)).toString('latin1')}\r\n`,
    () => `Subject: bare LF\nContent-Type: multipart/mixed; boundary=z\n\n--z\nmixed\r\nline ends\n--z--\n`,
    () =>
      `Content-Type: text/plain; charset=utf-8\r\n\r\n\xc3\x28 \xa0\xa1 \xe2\x28\xa1 \xf0\x28\x8c\xbc \xf8\xa1\xa1\xa1\xa1 \xed\xa0\x80\r\n`,
  ];
  return b(`From: <mailer-daemon@remote.test>\r\n${rng.pick(variants)()}`);
}

/** A whole dialogue as bytes; the caller splits it into writes at random places. */
const dialogues: Array<(rng: Rng) => { bytes: Buffer; ending?: 'destroy' }> = [
  (rng) => ({ bytes: rng.bytes(1 + rng.int(4096)) }),
  () => ({ bytes: Buffer.alloc(1_100_000 + 1, 'A') }), // an overlong line, no CRLF at all
  () => ({
    bytes: b(
      'EHLO a\0b\r\nMAIL FROM:<a\0b@remote.test>\r\nRCPT TO:<bounce+a1.aaaaaaaaaaaaaaaa@bounces.test\0>\r\n\0\0\0\r\nDATA\r\n',
    ),
  }),
  (rng) => {
    const commands = [
      'DATA',
      `RCPT TO:<${OWNED[0]}>`,
      'MAIL FROM:<x@remote.test>',
      'EHLO x',
      'HELO y',
      'RSET',
      '.',
      'NOOP',
      'VRFY root',
      'HELP',
      'STARTTLS',
    ];
    return { bytes: b(Array.from({ length: 3 + rng.int(12) }, () => rng.pick(commands)).join('\r\n') + '\r\n') };
  },
  () => ({ bytes: b('EHLO x\r\nMAIL FROM:<x@remote.test>\r\nDATA\r\nSubject: no rcpt\r\n\r\nbody\r\n.\r\n') }),
  (rng) => ({
    bytes: Buffer.concat([
      b(
        `EHLO x\r\n${'NOOP\r\nRSET\r\njunk junk\r\n'.repeat(1 + rng.int(40))}MAIL FROM:<x@r.test>\r\nRCPT TO:<${OWNED[1]}>\r\nDATA\r\n`,
      ),
      rng.bytes(500),
      b('\r\n.\r\n'),
    ]),
  }),
  (rng) => ({
    bytes: Buffer.concat([envelope(rng), dotStuff(brokenMime(rng)).subarray(0, 1 + rng.int(200))]),
    ending: 'destroy',
  }),
  (rng) => ({
    bytes: Buffer.concat([
      b(`EHLO x\nMAIL FROM:<x@remote.test>\nRCPT TO:<${OWNED[0]}>\nDATA\n`),
      b('Subject: bare\n\nbare LF body\n.\n'),
      b(rng.chance(0.5) ? '\r\n.\r\n' : ''),
    ]),
  }),
  () => ({
    bytes: b(
      'EHLO \xff\xfe\xc3\x28\r\nMAIL FROM:<\xc3\x28@remote.test> SMTPUTF8\r\nRCPT TO:<\xe2\x82@bounces.test>\r\nMAIL FROM:<x@r.test> BODY=WEIRD SIZE=abc\r\n',
    ),
  }),
  (rng) => ({
    bytes: Buffer.concat([envelope(rng), b(`X-Huge: ${'v'.repeat(100_000 + rng.int(300_000))}\r\n\r\nbody\r\n.\r\n`)]),
  }),
  (rng) => ({ bytes: Buffer.concat([envelope(rng), dotStuff(brokenMime(rng)), b('\r\n.\r\n')]) }),
  (rng) => ({
    bytes: Buffer.concat([
      envelope(rng),
      dotStuff(brokenMime(rng)),
      b('\r\n.\r\n'),
      envelope(rng),
      dotStuff(brokenMime(rng)),
      b('\r\n.\r\nQUIT\r\n'),
    ]),
  }),
  (rng) => ({
    bytes: Buffer.concat([envelope(rng), Buffer.alloc(MAX_BYTES + 1 + rng.int(1000), 'o'), b('\r\n.\r\n')]),
  }),
  () => ({
    bytes: b(
      `EHLO x\r\nMAIL FROM:<x@r.test>\r\n${Array.from({ length: 150 }, (_, i) => `RCPT TO:<${OWNED[i % 2]}>\r\nRCPT TO:<n${i}@elsewhere.test>\r\n`).join('')}DATA\r\n.\r\n`,
    ),
  }),
  () => ({ bytes: b('GET / HTTP/1.1\r\nHost: mx\r\n\r\n') }),
  (rng) => ({ bytes: Buffer.concat([b('EHLO x\r\nSTARTTLS\r\n'), rng.bytes(1 + rng.int(600))]) }),
  () => ({
    bytes: b(
      `EHLO x\r\nAUTH PLAIN AGEAYg==\r\nXCLIENT ADDR=1.2.3.4\r\nMAIL FROM:<${'a'.repeat(20_000)}@r.test>\r\nRCPT TO:<@route:${OWNED[0]}>\r\nRCPT TO:<"quoted local"@bounces.test>\r\n`,
    ),
  }),
  (rng) => ({ bytes: Buffer.concat([envelope(rng), rng.bytes(2000), b('\r\n.\r\n')]) }),
];

export interface Plan {
  writes: Buffer[];
  waitGreeting: boolean;
  ending: 'quit' | 'end' | 'destroy' | 'linger';
}

export function plan(rng: Rng): Plan {
  const made = rng.pick(dialogues)(rng);
  const cuts = Array.from({ length: rng.int(6) }, () => rng.int(made.bytes.length)).sort((x, y) => x - y);
  const writes: Buffer[] = [];
  let from = 0;
  for (const cut of [...cuts, made.bytes.length]) {
    if (cut > from) writes.push(made.bytes.subarray(from, cut));
    from = Math.max(from, cut);
  }
  return {
    writes,
    waitGreeting: rng.chance(0.85),
    ending: made.ending ?? rng.pick(['quit', 'end', 'destroy', 'linger'] as const),
  };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function play(port: number, dialogue: Plan): Promise<void> {
  const socket = net.connect(port, '127.0.0.1');
  socket.on('error', () => {}); // resets and EPIPE are what this test provokes
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  const greeted = new Promise<void>((resolve) => socket.once('data', () => resolve()));
  socket.on('data', () => {});
  const opened = await Promise.race([
    new Promise<boolean>((resolve) => socket.once('connect', () => resolve(true))),
    closed.then(() => false),
  ]);
  if (!opened) return;
  if (dialogue.waitGreeting) await Promise.race([greeted, closed, sleep(500)]);
  for (const chunk of dialogue.writes) {
    if (socket.destroyed || !socket.writable) break;
    socket.write(chunk);
    await sleep(0);
  }
  if (dialogue.ending === 'quit' && socket.writable) socket.write('QUIT\r\n');
  if (dialogue.ending === 'end') socket.end();
  if (dialogue.ending === 'destroy') socket.destroy();
  await Promise.race([closed, sleep(400)]);
  socket.destroy();
}
