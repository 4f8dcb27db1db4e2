// The bare loop of the direct delivery benchmark (bench/direct-delivery.ts): the same messages built and
// signed with Herald's code, all handed at once to one nodemailer pool per destination.
import nodemailer from 'nodemailer';
import { textOfHtml } from '../../src/emails/delivery-message.ts';
import { signMessage } from '../../src/emails/dkim-sign.ts';
import { buildMessage, formatMessageId } from '../../src/emails/mime.ts';
import { DESTINATIONS, EMAILS, HTML, recipient, SUBJECT, type Order } from './settings.ts';
import type { Bench } from './setup.ts';
import type { RunFigures } from './sink.ts';

/** The bare loop: build, sign and hand every message at once to its destination's nodemailer pool. */
export async function bareRun(bench: Bench, order: Order, round: number): Promise<RunFigures> {
  const { config, domain, domainName, from, limit, port, team, timed } = bench;
  const run = `bare-${order}-${round}`;
  const pools = new Map(
    DESTINATIONS.map((d) => [
      d.domain,
      nodemailer.createTransport({
        pool: true,
        maxConnections: limit,
        host: d.address,
        port,
        secure: false,
        name: config.mailDomain,
        tls: { rejectUnauthorized: false },
      }),
    ]),
  );
  const sendOne = async (i: number) => {
    const to = recipient(run, order, i);
    const date = new Date();
    const raw = await buildMessage({
      from,
      to: [to],
      subject: SUBJECT,
      html: HTML,
      // The same message as Herald's: an HTML-only email gets a text part made from the HTML.
      text: await textOfHtml(HTML),
      messageId: formatMessageId(`${run}-${i}-${team.id}`, config.mailDomain),
      date,
    });
    const signed = await signMessage(
      raw,
      { domain: domainName, selector: domain.dkimSelector, privateKeyPem: domain.dkimPrivateKey },
      date,
    );
    const pool = pools.get(to.slice(to.indexOf('@') + 1))!;
    await pool.sendMail({ envelope: { from: `bounce@${domain.returnPath}`, to: [to] }, raw: signed });
  };
  return timed(
    run,
    async () => {
      await Promise.all(Array.from({ length: EMAILS }, (_, i) => sendOne(i)));
    },
    async () => {
      for (const pool of pools.values()) pool.close();
    },
  );
}
