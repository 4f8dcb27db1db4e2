// What a signed Stripe event does to a plan (issue 45): a completed subscription checkout
// (checkout.session.completed, or .async_payment_succeeded once a delayed payment clears) or a
// subscription created active or trialing (customer.subscription.created) moves the Stripe
// customer's team to Pro billed by card, through billing's one plan-change path. The event is
// trusted for its customer only: it acts on the team whose stripeCustomerId it names, and when it
// carries Herald's team id (client_reference_id, metadata) that id must be the same team.
// Duplicates and either order are harmless: the second change finds the team already Pro by card.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { PriceList } from '../platform/price-list.ts';
import { setPlanAndBillingMethod } from './pro-months.ts';
import { teamsOfStripeCustomer } from './team-billing-queries.ts';

const CHECKOUT_EVENTS = new Set(['checkout.session.completed', 'checkout.session.async_payment_succeeded']);
const PAID = new Set(['paid', 'no_payment_required']);
const LIVE_SUBSCRIPTION = new Set(['active', 'trialing']);

interface EventObject {
  customer?: unknown;
  mode?: unknown;
  payment_status?: unknown;
  status?: unknown;
  client_reference_id?: unknown;
  metadata?: { herald_team_id?: unknown } | null;
}

/** Whether the event says the customer now pays Pro by card, and the Herald team id it names. */
function proByCard(type: string, object: EventObject): { yes: boolean; teamId: string | null } {
  const named =
    typeof object.client_reference_id === 'string'
      ? object.client_reference_id
      : typeof object.metadata?.herald_team_id === 'string'
        ? object.metadata.herald_team_id
        : null;
  if (CHECKOUT_EVENTS.has(type)) {
    return { yes: object.mode === 'subscription' && PAID.has(String(object.payment_status)), teamId: named };
  }
  if (type === 'customer.subscription.created') {
    return { yes: LIVE_SUBSCRIPTION.has(String(object.status)), teamId: named };
  }
  return { yes: false, teamId: null };
}

/**
 * Applies a verified event's plan change; answers the teams it moved to Pro (their cached card reads
 * are stale). `payload` is the exact body whose signature was checked.
 */
export async function applyCardPlanEvent(
  deps: { db: Kysely<Database>; prices: PriceList; now: Date },
  payload: string,
  customerId: string | null,
): Promise<number[]> {
  if (customerId === null) return [];
  let event: { type?: unknown; data?: { object?: EventObject } };
  try {
    event = JSON.parse(payload) as typeof event;
  } catch {
    return [];
  }
  const object = event.data?.object;
  if (typeof event.type !== 'string' || !object) return [];
  const { yes, teamId } = proByCard(event.type, object);
  if (!yes) return [];
  const teams = (await teamsOfStripeCustomer(deps.db, customerId)).filter(
    (id) => teamId === null || String(id) === teamId,
  );
  for (const id of teams) {
    await setPlanAndBillingMethod(deps.db, id, { plan: 'pro', method: 'card' }, deps.prices, deps.now);
  }
  return teams;
}
