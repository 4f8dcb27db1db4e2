// Billing (team admins only; a member sees a plain sentence and no billing request is made): the
// wallet balance, the plan and how it is paid with Change plan, then tabs in the URL (?tab=): the
// ledger, receipts, invoices, usage against the plan and the price list. A receipt opens over any
// tab (?receipt=). Back from Stripe Checkout (?checkout=) the page says so and waits for the plan.
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { sessionKey, useSignedIn } from '../api/session.ts';
import { useBalance, useSubscription, type Subscription } from '../lib/use-billing.ts';
import { useUrlParam } from '../lib/use-url-param.ts';
import { Button } from '../ui/button.tsx';
import { PageHeader } from '../ui/page-header.tsx';
import { ErrorState } from '../ui/states.tsx';
import { Tag } from '../ui/status-badge.tsx';
import { UrlTabs } from '../ui/tabs.tsx';
import { BillingInvoices } from './billing-invoices.tsx';
import { BillingLedger } from './billing-ledger.tsx';
import { ChangePlan, PlanFacts } from './billing-plan.tsx';
import { BillingPricing } from './billing-pricing.tsx';
import { BillingReceipts, ReceiptPanel } from './billing-receipts.tsx';
import { BillingUsage } from './billing-usage.tsx';

function Stat({ label, children, note }: { label: string; children: ReactNode; note?: ReactNode }) {
  return (
    <div className="rounded-lg border border-line p-4">
      <dt className="text-[12px] font-medium text-fg-2">{label}</dt>
      <dd className="mt-1 text-[28px] leading-9 font-semibold tabular">{children}</dd>
      {note ? <dd className="mt-1 text-[13px] text-fg-2">{note}</dd> : null}
    </div>
  );
}

/** Back from Stripe Checkout: say what happened; after a payment, poll until Stripe's event lands. */
function CheckoutNotice({ subscription }: { subscription: Subscription | undefined }) {
  const [checkout, setCheckout] = useUrlParam('checkout');
  if (checkout !== 'success' && checkout !== 'cancelled') return null;
  const done = checkout === 'success' && subscription?.plan === 'pro' && subscription.billingMethod === 'card';
  const text =
    checkout === 'cancelled'
      ? 'Checkout cancelled: nothing was charged and the plan is unchanged.'
      : done
        ? 'Payment confirmed by Stripe: the team is on Pro, paid by card.'
        : 'Stripe has your card. The plan turns Pro as soon as Stripe confirms the subscription; this page updates by itself.';
  return (
    <div
      role="status"
      className="mb-6 flex flex-wrap items-center justify-between gap-2 rounded-lg border border-line bg-surface px-4 py-3 text-[13px]"
    >
      <p>{text}</p>
      <Button variant="ghost" onClick={() => setCheckout(null)}>
        Dismiss
      </Button>
    </div>
  );
}

function GraceNotice({ subscription }: { subscription: Subscription }) {
  const { state, graceEndsAt } = subscription.wallet;
  if (state !== 'grace' && state !== 'lapsed') return null;
  const until = graceEndsAt ? new Date(graceEndsAt).toLocaleDateString('en-US', { dateStyle: 'medium' }) : null;
  return (
    <p
      role="status"
      className="mb-6 rounded-lg border border-line bg-[var(--tone-warning-bg)] px-4 py-3 text-[13px] text-[var(--tone-warning)]"
    >
      {state === 'grace'
        ? `The wallet could not pay this month's Pro plan (${subscription.planPayment.priceFormatted}). Pro goes on until ${until ?? 'the grace period ends'}; a top-up pays it at once.`
        : `The Pro month is unpaid and the grace period is over: the team is held to the Free plan's limits until a top-up pays it.`}
    </p>
  );
}

function BillingForAdmins() {
  const session = useSignedIn();
  const queryClient = useQueryClient();
  const [checkout] = useUrlParam('checkout');
  const [changing, setChanging] = useState(false);
  const balance = useBalance();
  // Back from a paid checkout: Stripe's event makes the team Pro within seconds; look every 3 s.
  const subscription = useSubscription({
    pollMs: (data) => (checkout === 'success' && data?.billingMethod !== 'card' ? 3000 : false),
  });
  const plan = subscription.data?.plan;
  // The shell's session carries the plan too (team switcher, checklist): keep it in step.
  useEffect(() => {
    if (plan && plan !== session.team.plan) void queryClient.invalidateQueries({ queryKey: sessionKey });
  }, [plan, session.team.plan, queryClient]);

  const s = subscription.data;
  const wallet = balance.data;
  const latest = wallet?.data[0];
  const canChange = s !== undefined && s.billingMethod !== 'card';
  return (
    <>
      <PageHeader
        title="Billing"
        badges={
          s ? <Tag tone={s.plan === 'pro' ? 'success' : 'neutral'}>{s.plan === 'pro' ? 'Pro' : 'Free'}</Tag> : null
        }
        actions={
          canChange ? (
            <Button variant="primary" onClick={() => setChanging(true)}>
              Change plan
            </Button>
          ) : null
        }
      />
      <CheckoutNotice subscription={s} />
      {s ? <GraceNotice subscription={s} /> : null}
      {subscription.isError ? (
        <ErrorState error={subscription.error} onRetry={() => void subscription.refetch()} />
      ) : (
        <dl className="grid gap-3 sm:grid-cols-3" aria-busy={subscription.isPending || balance.isPending}>
          <Stat
            label="Wallet balance"
            note={
              balance.isError
                ? balance.error.message
                : wallet && wallet.currency === null
                  ? 'No wallet yet: the operator tops it up.'
                  : wallet?.currency
            }
          >
            {latest ? latest.balanceAfterFormatted : balance.isPending ? '–' : '—'}
          </Stat>
          <Stat label="Plan" note={s ? <PlanFacts subscription={s} /> : null}>
            {s ? (s.plan === 'pro' ? 'Pro' : 'Free') : '–'}
          </Stat>
          <Stat
            label="Pro price"
            note={
              s ? (s.planPayment.priceConfigured ? 'a month' : `Not priced in ${s.planPayment.currency} yet`) : null
            }
          >
            {s ? (s.planPayment.priceConfigured ? s.planPayment.priceFormatted : '—') : '–'}
          </Stat>
        </dl>
      )}
      <div className="mt-8">
        <UrlTabs
          label="Billing"
          tabs={[
            { value: 'ledger', label: 'Ledger', content: <BillingLedger /> },
            { value: 'receipts', label: 'Receipts', content: <BillingReceipts /> },
            { value: 'invoices', label: 'Invoices', content: <BillingInvoices /> },
            { value: 'usage', label: 'Usage', content: <BillingUsage /> },
            { value: 'pricing', label: 'Pricing', content: <BillingPricing /> },
          ]}
        />
      </div>
      <ReceiptPanel />
      {s ? (
        <ChangePlan
          open={changing}
          onOpenChange={setChanging}
          subscription={s}
          balance={latest?.balanceAfterFormatted ?? null}
        />
      ) : null}
    </>
  );
}

export default function Billing() {
  const session = useSignedIn();
  // The billing reads are a team admin's (the API answers a member 403): ask for none.
  const admin = session.team.role === 'OWNER' || session.team.role === 'ADMIN';
  return (
    <>
      <title>Billing · Herald</title>
      {admin ? (
        <BillingForAdmins />
      ) : (
        <>
          <PageHeader title="Billing" />
          <p className="text-[14px] text-fg-2">Only team admins can see billing.</p>
        </>
      )}
    </>
  );
}
