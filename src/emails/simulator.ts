// Simulator addresses (issue 46): mail to `<kind>[+anything]@simulator.herald.test` goes through the
// whole send and delivery path (rendering, DKIM signing, events, webhooks) but never leaves the
// machine: delivery answers for the receiver, as the kind says. Such mail counts against no quota,
// never reaches the team's suppression list, and an email to simulator addresses only is left out of
// the analytics counters that reputation reads. `.test` is reserved for this (RFC 2606).
import type { DeliveryResult, Envelope, MailTransport, RecipientOutcome } from '../adapters/mail-transport/index.ts';
import { badRequest } from '../platform/errors.ts';
import { domainOf } from './recipients.ts';

export const SIMULATOR_DOMAIN = 'simulator.herald.test';

export const SIMULATED_KINDS = ['delivered', 'bounced', 'soft-bounced', 'complained', 'delayed', 'suppressed'] as const;
export type SimulatedKind = (typeof SIMULATED_KINDS)[number];

export const isSimulated = (address: string): boolean => domainOf(address) === SIMULATOR_DOMAIN;

/** The kind of a simulator address (lower-cased, as recipients are), or null for any other address. */
export function simulatedKind(address: string): SimulatedKind | null {
  if (!isSimulated(address)) return null;
  const local = address.slice(0, address.lastIndexOf('@')).split('+')[0]!;
  return (SIMULATED_KINDS as readonly string[]).includes(local) ? (local as SimulatedKind) : null;
}

/** At send time: a simulator address that simulates nothing is a 400 naming the field and the choices. */
export function checkSimulatorAddresses(recipients: string[], at: (field: string) => string): void {
  const unknown = recipients.find((address) => isSimulated(address) && simulatedKind(address) === null);
  if (unknown === undefined) return;
  throw badRequest(
    `${at('to')}: ${unknown} simulates nothing; the simulator's addresses are ${SIMULATED_KINDS.map((k) => `${k}@`).join(', ')} ${SIMULATOR_DOMAIN} (with +anything allowed)`,
  );
}

const HOST = 'simulator';

/**
 * What the simulated receiver answers `recipient` at this attempt (1 for the first): delayed@ defers
 * the first attempt and accepts the next; bounced@ refuses the user (a hard bounce), soft-bounced@
 * a full mailbox (a soft one); the others accept.
 */
export function simulatedOutcome(recipient: string, attempt: number): RecipientOutcome {
  switch (simulatedKind(recipient)) {
    case 'bounced':
      return {
        recipient,
        status: 'permanent',
        response: '550 5.1.1 simulated: no such user',
        responseCode: 550,
        host: HOST,
      };
    case 'soft-bounced':
      return {
        recipient,
        status: 'permanent',
        response: '552 5.2.2 simulated: mailbox full',
        responseCode: 552,
        host: HOST,
      };
    case 'delayed':
      if (attempt <= 1)
        return {
          recipient,
          status: 'temporary',
          response: '451 4.3.0 simulated: try again later',
          responseCode: 451,
          host: HOST,
        };
      break;
    default:
      break;
  }
  return { recipient, status: 'accepted', response: '250 2.0.0 simulated: accepted', responseCode: 250, host: HOST };
}

/** complained@: the receiver reports a complaint after accepting. */
export const complainsAfterDelivery = (recipient: string): boolean => simulatedKind(recipient) === 'complained';

/** The transport for the real recipients, the simulator for the others; outcomes in envelope order. */
export async function sendOrSimulate(
  transport: MailTransport,
  envelope: Envelope,
  raw: Buffer,
  attempt: number,
): Promise<DeliveryResult> {
  if (!envelope.to.some(isSimulated)) return transport.send(envelope, raw);
  const real = envelope.to.filter((r) => !isSimulated(r));
  const sent = real.length === 0 ? [] : (await transport.send({ ...envelope, to: real }, raw)).recipients;
  const byRecipient = new Map(sent.map((o) => [o.recipient, o]));
  return {
    recipients: envelope.to.map((r) => (isSimulated(r) ? simulatedOutcome(r, attempt) : byRecipient.get(r)!)),
  };
}
