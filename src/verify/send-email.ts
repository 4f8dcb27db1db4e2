// A code by email: the recipient, from address, key domain, suppression and template checks (one
// read), risk, limits, then the code row and its email (sendEmails, through queueEmails) in one
// transaction, so neither exists without the other. The built-in message or the team's template
// with {{code}}, {{appName}} and {{expiresMinutes}}.
import { domainOf, parseAddress, sendEmails, type queueEmails } from '../emails/index.ts';
import type { Principal } from '../platform/auth/api-keys.ts';
import { ApiError, badRequest, notFound } from '../platform/errors.ts';
import { getTemplateForSend } from '../templates/index.ts';
import { newCode } from './codes.ts';
import { isDisposableDomain } from './disposable-domains.ts';
import { builtInEmail, DEFAULT_SUBJECT, expiresMinutesOf, fillPlaceholders, usesCode } from './message.ts';
import { insertVerifications } from './queries.ts';
import type { SendVerificationInput } from './schemas.ts';
import {
  pendingRow,
  refuseIfHigh,
  riskQuestion,
  scoreOf,
  sendFactsOf,
  type Recipient,
  type SentVerification,
  type VerifyDeps,
} from './send.ts';

type EmailInput = Parameters<typeof queueEmails>[2][number];

function recipientAddress(to: string): string {
  const parsed = parseAddress(to);
  if (parsed === null || parsed.name !== null || to.trim() !== to)
    throw badRequest('to: must be an email address (for an SMS code set channel to sms)');
  return parsed.address.toLowerCase();
}

export async function sendEmailCode(
  deps: VerifyDeps,
  principal: Principal,
  input: SendVerificationInput,
): Promise<SentVerification> {
  if (input.senderId !== undefined) throw badRequest('senderId: only for channel sms');
  const to = recipientAddress(input.to);
  let fromDomain: string | null = null;
  if (input.from !== undefined) {
    const from = parseAddress(input.from);
    if (from === null) throw badRequest('from: must be an email address, or `Name <address>`');
    fromDomain = domainOf(from.address);
  }
  const { teamId } = principal;
  const now = deps.clock.now();
  const recipient: Recipient = {
    channel: 'email',
    to,
    toPrefix: null,
    country: null,
    clientIpHash: input.clientIp === undefined ? null : deps.secrets.hmac('client-ip', input.clientIp),
  };
  const facts = await sendFactsOf(deps, {
    teamId,
    context: { fromDomain, to, keyDomainId: principal.domainId },
    risk: riskQuestion(recipient, now),
  });
  if (facts === undefined) throw notFound('Team');
  const { context } = facts;
  if (fromDomain !== null && !context.fromDomainVerified)
    throw badRequest(`from: ${fromDomain} is not a verified domain of this team`);
  if (fromDomain === null && context.firstVerifiedDomain === null)
    throw badRequest('from: the team has no verified domain to send the code from; verify one or pass from');
  const from = input.from ?? `no-reply@${context.firstVerifiedDomain}`;
  const resolvedDomain = fromDomain ?? context.firstVerifiedDomain!;
  if (context.keyDomain !== null && context.keyDomain !== resolvedDomain)
    throw new ApiError(403, 'FORBIDDEN', `from: this key may send only from its domain ${context.keyDomain}`);
  if (context.suppressed)
    throw badRequest(
      'to: this address is suppressed (an earlier email bounced or was marked as spam); no code was sent',
    );
  if (input.templateId !== undefined) {
    const template = await getTemplateForSend(deps.db, teamId, input.templateId);
    if (template === undefined) throw badRequest('templateId: the team has no template with this id');
    if (!usesCode(`${input.subject ?? template.subject}\n${template.html ?? ''}`))
      throw badRequest('templateId: the template must show the code with {{code}}');
  }

  const emailDomain = domainOf(to);
  const risk = scoreOf(deps, recipient, facts.counts, {
    numberType: null,
    emailDomain,
    disposableEmail: isDisposableDomain(emailDomain),
  });
  await refuseIfHigh(deps, principal, recipient, risk, now);

  const code = newCode(input.codeLength);
  const row = await pendingRow(
    deps,
    principal,
    { ...recipient, clientIp: input.clientIp },
    {
      risk,
      now,
      code,
      expiresIn: input.expiresIn,
    },
  );
  const message = {
    code,
    appName: input.appName ?? context.teamName,
    expiresMinutes: expiresMinutesOf(input.expiresIn),
  };
  const email: EmailInput =
    input.templateId === undefined
      ? { from, to, ...builtInEmail(message, input.subject ?? DEFAULT_SUBJECT) }
      : {
          from,
          to,
          templateId: input.templateId,
          ...(input.subject === undefined ? {} : { subject: fillPlaceholders(input.subject, message) }),
          variables: { code, appName: message.appName, expiresMinutes: String(message.expiresMinutes) },
        };
  // The code row (with its month's count) beside its email, in the send's transaction: both exist
  // or neither does.
  await sendEmails(deps.email, principal, [email], false, {
    row: ([emailId]) => Object.assign(row, { email_id: emailId! }),
    write: insertVerifications,
  });
  return { row, delivery: null };
}
