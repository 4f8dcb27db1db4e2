// A code by SMS: the SMS area's checks that need no money (number, country, SMS switch, sender ID,
// its pumping signals) through prepareSms, our own signals added to its reasons, limits, then the
// charge, the message and the code row in one transaction (queueSms: 402 rolls it all back). The
// delivery worker is woken after commit.
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import type { Principal } from '../platform/auth/api-keys.ts';
import { ApiError, badRequest } from '../platform/errors.ts';
import type { RiskReason } from '../platform/risk.ts';
import { prepareSms, queueSms, SMS_DELIVERY_QUEUE, type PreparedSms } from '../sms/index.ts';
import { newCode } from './codes.ts';
import { expiresMinutesOf, smsText } from './message.ts';
import { insertVerification } from './queries.ts';
import { mergeRisk } from './risk.ts';
import type { SendVerificationInput } from './schemas.ts';
import { pendingRow, refuseIfHigh, riskOf, type Recipient, type SentVerification, type VerifyDeps } from './send.ts';

export async function sendSmsCode(
  deps: VerifyDeps,
  principal: Principal,
  input: SendVerificationInput,
): Promise<SentVerification> {
  for (const field of ['from', 'subject', 'templateId'] as const)
    if (input[field] !== undefined) throw badRequest(`${field}: only for channel email`);
  if (input.appName === undefined) throw badRequest('appName: required for channel sms (1 to 60 characters)');

  const code = newCode(input.codeLength);
  const text = smsText({ code, appName: input.appName, expiresMinutes: expiresMinutesOf(input.expiresIn) });
  let prepared: PreparedSms | undefined;
  let smsReasons: RiskReason[] = [];
  try {
    prepared = await prepareSms(deps.sms, principal, {
      to: input.to,
      text,
      senderId: input.senderId,
      clientIp: input.clientIp,
    });
  } catch (error) {
    // The SMS area refused on its own signals: ours are added and the refusal stored below.
    if (!(error instanceof ApiError) || error.code !== 'RISK_REFUSED') throw error;
    smsReasons = (error.extra?.risk as { reasons: RiskReason[] }).reasons;
  }

  // prepareSms accepted the number's shape before any risk refusal, so it parses.
  const phone = parsePhoneNumberFromString(input.to)!;
  const now = prepared?.now ?? deps.clock.now();
  const recipient: Recipient = {
    channel: 'sms',
    to: input.to,
    toPrefix: input.to.slice(0, -4),
    country: phone.country ?? null,
    clientIpHash: input.clientIp === undefined ? null : deps.secrets.hmac('client-ip', input.clientIp),
  };
  const ours = await riskOf(deps, principal.teamId, recipient, now, {
    numberType: phone.getType() ?? null,
    emailDomain: null,
    disposableEmail: false,
  });
  const risk = mergeRisk(ours, smsReasons, deps.risk);
  await refuseIfHigh(deps, principal, recipient, risk, now);
  if (prepared === undefined) throw new Error('the SMS area refused a send our merged score does not');

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
  const sms = await deps.db.transaction().execute(async (tx) => {
    const [stored] = await queueSms(tx, principal, [prepared], deps.sms);
    row.sms_id = stored!.id;
    await insertVerification(tx, row);
    return stored!;
  });
  deps.sms.announcer.announce(SMS_DELIVERY_QUEUE);
  return { row, delivery: { status: sms.status, providerMessageId: sms.provider_message_id, reason: null } };
}
