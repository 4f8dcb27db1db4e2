// The read side of queueEmails (queue-emails.ts): each send's body checked on its own, then what
// the sends need from the database read once for all of them (the teams' plans, verified domains,
// suppressions and unsubscribes in one statement; replied-to emails per team), and each send's rows
// built. A send refused by a rule is handed to `refuse` and left out; the others go on together.
import type { Transaction } from 'kysely';
import type { Database, TeamPlan } from '../db/schema.ts';
import type { Principal } from '../platform/auth/api-keys.ts';
import { ApiError, badRequest } from '../platform/errors.ts';
import { getTemplateForSend, type TemplateForSend } from '../templates/index.ts';
import { checkBuiltinRecipients } from './builtin-sender.ts';
import { checkSendSize, type Reservation } from './limits.ts';
import { existingEmailIds, readSendContexts, type NewEmail, type SendContext } from './queries.ts';
import type { UsageOfMonth } from './usage-queries.ts';
import { SendBatchBody, SendEmailBody, type SendEmailInput } from './schemas.ts';
import { buildEmails, checkInputs, fieldOf, partsOf, type CheckedInput, type PreparedInput } from './send-rules.ts';
import { checkSimulatorAddresses, isSimulated } from './simulator.ts';

/** One caller's send. */
export interface EmailSend {
  principal: Principal;
  inputs: SendEmailInput[];
  /** Field names in errors prefixed with `[i].`, as POST /v1/emails/batch does. Default: more than one input. */
  batch?: boolean | undefined;
  /**
   * HERALD_MAIL_DOMAIN (deps.config.mailDomain): when given, a team without a verified domain of
   * that name may send from it, to its own members only (builtin-sender.ts).
   */
  mailDomain?: string | undefined;
  /**
   * The campaign these emails belong to: they are MARKETING whatever their body (each copy with its
   * own unsubscribe link and List-Unsubscribe), carry `Precedence: bulk`, and keep the campaign's id.
   */
  campaignId?: string | undefined;
  /** MARKETING whatever the body, without a campaign (a campaign's test copies). */
  marketing?: boolean | undefined;
  /**
   * Delivered by the bulk lane, never before transactional mail: journey mail (a campaign's always
   * is). Lane is the only difference: no header, no type.
   */
  bulk?: boolean | undefined;
}

/** A send whose body passed the checks that need no database but the key's domain. */
export interface CheckedSend {
  /** Its place among the sends given. */
  index: number;
  principal: Principal;
  inputs: SendEmailInput[];
  batch: boolean;
  mailDomain: string | undefined;
  campaignId: string | undefined;
  marketing: boolean;
  bulk: boolean;
  checked: CheckedInput[];
}

/** A send ready to store, with the recipients it counts against the plan's limits. */
export interface PreparedSend {
  index: number;
  teamId: number;
  plan: TeamPlan;
  emails: NewEmail[];
  wanted: Reservation;
  /** The team's usage as read with its context (not locked). */
  usage: UsageOfMonth;
}

type Tx = Transaction<Database>;

/** The body schema and the checks that need nothing but the key's domain; throws the send's ApiError. */
export async function checkSend(tx: Tx, send: EmailSend, index: number): Promise<CheckedSend> {
  const batch = send.batch ?? send.inputs.length > 1;
  const inputs = validated(send.inputs, batch);
  const checked = await checkInputs(tx, send.principal, inputs, batch);
  const { principal, mailDomain, campaignId } = send;
  const marketing = send.marketing === true || campaignId !== undefined;
  const bulk = send.bulk === true || campaignId !== undefined;
  return { index, principal, inputs, batch, mailDomain, campaignId, marketing, bulk, checked };
}

/** Each send's rows, from one read of every team's context; a refused send goes to `refuse`. */
export async function prepareSends(
  tx: Tx,
  sends: CheckedSend[],
  now: Date,
  refuse: (index: number, error: unknown) => void,
): Promise<PreparedSend[]> {
  const teams = [...new Set(sends.map((s) => s.principal.teamId))];
  const contexts = new Map<number, SendContext>();
  const read = await readSendContexts(
    tx,
    teams.map((teamId) => {
      const ofTeam = sends.filter((s) => s.principal.teamId === teamId).flatMap((s) => s.checked);
      return {
        teamId,
        domainNames: [...new Set(ofTeam.map((c) => c.fromDomain))],
        addresses: [...new Set(ofTeam.flatMap((c) => c.recipients))],
      };
    }),
    now.toISOString().slice(0, 10),
  );
  teams.forEach((teamId, i) => contexts.set(teamId, read[i]!));
  const prepared: PreparedSend[] = [];
  for (const send of sends) {
    try {
      prepared.push(await prepareSend(tx, send, contexts.get(send.principal.teamId)!, now));
    } catch (error) {
      refuse(send.index, error);
    }
  }
  return prepared;
}

async function prepareSend(tx: Tx, send: CheckedSend, context: SendContext, now: Date): Promise<PreparedSend> {
  const { principal, inputs, batch, checked } = send;
  const teamId = principal.teamId;
  if (context.plan === null) throw new ApiError(404, 'NOT_FOUND', 'Team not found');
  // A reply must answer an email of the same team (another team's is as missing as an unknown id).
  const answered = await existingEmailIds(tx, teamId, [
    ...new Set(inputs.flatMap((i) => (i.inReplyToId ? [i.inReplyToId] : []))),
  ]);
  const prepared: PreparedInput[] = [];
  for (const [index, input] of inputs.entries()) {
    const at = fieldOf(batch, index);
    const { fromDomain, recipients } = checked[index]!;
    if (input.inReplyToId && !answered.has(input.inReplyToId))
      throw new ApiError(404, 'NOT_FOUND', `${at('inReplyToId')}: email not found`);
    let domainId: number | null | undefined = context.domains.get(fromDomain);
    checkSimulatorAddresses(recipients, at);
    if (domainId === undefined && fromDomain === send.mailDomain) {
      // The built-in domain reaches the team's members, and the simulator.
      await checkBuiltinRecipients(
        tx,
        teamId,
        recipients.filter((r) => !isSimulated(r)),
        at,
      );
      domainId = null;
    }
    if (domainId === undefined) throw badRequest(`${at('from')}: ${fromDomain} is not a verified domain of this team`);
    let template: TemplateForSend | null = null;
    if (input.templateId !== undefined) {
      template = (await getTemplateForSend(tx, teamId, input.templateId)) ?? null;
      if (!template) throw new ApiError(404, 'NOT_FOUND', `${at('templateId')}: template not found`);
    }
    prepared.push({
      input,
      domainId,
      fromDomain,
      recipients,
      ...partsOf(input, template, send.marketing),
    });
  }
  const { emails, wanted } = buildEmails(prepared, context, principal.keyId, now, {
    campaignId: send.campaignId ?? null,
    bulk: send.bulk,
  });
  checkSendSize(context.plan, wanted);
  return { index: send.index, teamId, plan: context.plan, emails, wanted, usage: context.usage };
}

/** The route's own schema, with its 400 naming the field (`[i].field` in a batch). */
function validated(inputs: SendEmailInput[], batch: boolean): SendEmailInput[] {
  if (!batch && inputs.length !== 1) throw new Error('queueEmails: one input, or batch: true');
  const parsed = batch ? SendBatchBody.safeParse(inputs) : SendEmailBody.safeParse(inputs[0]);
  if (parsed.success) return batch ? (parsed.data as SendEmailInput[]) : [parsed.data as SendEmailInput];
  const issue = parsed.error.issues[0]!;
  const field = issue.path.map((part) => (typeof part === 'number' ? `[${part}]` : `.${String(part)}`)).join('');
  throw badRequest(`${field.replace(/^\./, '') || 'body'}: ${issue.message}`);
}
