// POST /v1/sms: every check that needs no money first (prepare.ts), then the charge and the message
// row, which is the delivery job, stored together by queueSms: in the API process inside the shared
// batch's transaction (store-batch.ts), elsewhere in a transaction of its own. A refused charge (402)
// stores nothing. The delivery worker is woken after commit.
import type { Principal } from '../platform/auth/api-keys.ts';
import type { PriceList } from '../platform/price-list.ts';
import type { QueueAnnouncer } from '../queue/index.ts';
import { prepareSms, sendContextBatching, type PreparedSms, type SmsCheckDeps } from './prepare.ts';
import type { SmsRow } from './queries.ts';
import { queueSms } from './queue-sms.ts';
import type { SendSmsInput } from './schemas.ts';
import { smsStoreBatching, type SmsStoreBatching } from './store-batch.ts';

export const SMS_DELIVERY_QUEUE = 'sms-delivery';

export interface SmsSendDeps extends SmsCheckDeps {
  announcer: QueueAnnouncer;
  prices: PriceList;
  /** The API process's shared batch transaction; without it every send takes a transaction of its own. */
  batching?: SmsStoreBatching;
}

async function store(deps: SmsSendDeps, principal: Principal, sms: PreparedSms): Promise<SmsRow> {
  if (deps.batching !== undefined) {
    const outcome = await deps.batching.submit({ principal, sms });
    if ('error' in outcome) throw outcome.error;
    return outcome.row;
  }
  const [row] = await deps.db.transaction().execute((tx) => queueSms(tx, principal, [sms], deps));
  return row!;
}

export async function sendSms(deps: SmsSendDeps, principal: Principal, input: SendSmsInput): Promise<SmsRow> {
  const sms = await prepareSms(deps, principal, input);
  const row = await store(deps, principal, sms);
  deps.announcer.announce(SMS_DELIVERY_QUEUE);
  return row;
}

/** What the send path is built from: the process's parts and its SMS settings (app.ts passes them). */
export type SmsSendSource = Pick<SmsSendDeps, 'db' | 'clock' | 'secrets' | 'announcer'> & {
  config: Pick<SmsSendDeps, 'prices' | 'risk'> & {
    smsCountries: SmsCheckDeps['sms']['countries'];
    smsSharedSenderId: string;
  };
};

/** The send path's dependencies; `batched` for the API process. */
export function smsSendDeps(deps: SmsSendSource, options: { batched: boolean } = { batched: false }): SmsSendDeps {
  const prices = deps.config.prices;
  return {
    db: deps.db,
    clock: deps.clock,
    secrets: deps.secrets,
    announcer: deps.announcer,
    prices,
    sms: {
      countries: deps.config.smsCountries,
      sharedSenderId: deps.config.smsSharedSenderId,
    },
    risk: deps.config.risk,
    batching: options.batched ? smsStoreBatching(deps.db, { prices }) : undefined,
    contexts: options.batched ? sendContextBatching(deps.db) : undefined,
  };
}
