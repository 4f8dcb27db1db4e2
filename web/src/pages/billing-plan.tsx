// The plan: one muted line on how it is paid, and Change plan through PUT /v1/session/plan. Free to
// Pro is a dialog that states the price and what is charged now: from the wallet (a 402 shows the
// API's message and the balance in the dialog) or by card (the answer's Stripe Checkout URL, where
// the browser goes next). Pro to Free asks to confirm, saying the rest of the month is not refunded.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { toast } from 'sonner';
import { api, ApiFailure, must } from '../api/client.ts';
import { sessionKey } from '../api/session.ts';
import { billingKey, type Subscription } from '../lib/use-billing.ts';
import { ConfirmDialog, FormDialog, splitFieldError } from '../ui/dialog.tsx';
import { Time } from '../ui/time.tsx';

type Method = 'wallet' | 'card';
type PlanChange = { plan: 'free' } | { plan: 'pro'; method: Method };

export function PlanFacts({ subscription: s }: { subscription: Subscription }) {
  if (s.plan !== 'pro') return <>Free plan limits. Pro is {s.planPayment.priceFormatted} a month.</>;
  if (s.billingMethod === 'card') {
    const card = s.stripe;
    return (
      <>
        Paid by card (Stripe){card ? ` · ${card.status}` : ''}
        {card?.currentPeriodEnd ? (
          <>
            {' '}
            · {card.cancelAtPeriodEnd ? 'ends' : 'renews'} <Time value={card.currentPeriodEnd} />
          </>
        ) : null}
      </>
    );
  }
  if (s.billingMethod === 'wallet') {
    const { state, proRenewsAt, graceEndsAt } = s.wallet;
    if (state === 'grace') {
      return (
        <>
          Paid from the wallet · unpaid, Pro until <Time value={graceEndsAt} />
        </>
      );
    }
    if (state === 'lapsed') return <>Paid from the wallet · unpaid: Free plan limits until a top-up</>;
    return (
      <>
        Paid from the wallet{proRenewsAt ? ' · renews ' : ''}
        {proRenewsAt ? <Time value={proRenewsAt} /> : null}
      </>
    );
  }
  return <>Set by the operator</>;
}

/** PUT /v1/session/plan: the new session (wallet, free) or a Stripe Checkout URL (card). */
function usePlanChange(onDone: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: PlanChange) => must(api.PUT('/api/v1/session/plan', { body })),
    onSuccess: async (answer) => {
      if ('checkoutUrl' in answer) {
        // Stripe's page; it sends the browser back to /billing?checkout=…
        window.location.assign(answer.checkoutUrl);
        return;
      }
      queryClient.setQueryData(sessionKey, answer);
      await queryClient.invalidateQueries({ queryKey: billingKey });
      onDone();
      toast(answer.team.plan === 'pro' ? 'The team is on Pro' : 'The team is on Free');
    },
  });
}

function MoveToPro({
  open,
  onOpenChange,
  subscription: s,
  balance,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  subscription: Subscription;
  balance: string | null;
}) {
  const [method, setMethod] = useState<Method>('wallet');
  const change = usePlanChange(() => onOpenChange(false));
  const id = useId();
  const price = s.planPayment.priceFormatted;
  const failure = splitFieldError(change.error, ['method']);
  const short = change.error instanceof ApiFailure && change.error.status === 402;
  const formError = failure && !failure.field ? failure.message : null;
  const held = balance ? `The wallet holds ${balance}.` : 'The wallet is empty.';
  return (
    <FormDialog
      open={open}
      onOpenChange={(next) => {
        if (!next) change.reset();
        onOpenChange(next);
      }}
      title="Move to Pro"
      description={`Pro costs ${price} a month, with the Pro plan's limits from the moment it is paid.`}
      submitLabel={method === 'wallet' ? `Pay ${price} and move to Pro` : 'Continue to Stripe'}
      pending={change.isPending || change.isSuccess}
      error={formError && short ? `${formError.replace(/\.?$/, '.')} ${held}` : formError}
      onSubmit={() => change.mutate({ plan: 'pro', method })}
    >
      <fieldset aria-describedby={failure?.field ? `${id}-error` : undefined}>
        <legend className="mb-2 text-[13px] font-medium">Pay with</legend>
        {(
          [
            ['wallet', 'The wallet', balance ? `Balance ${balance}` : 'No balance yet'],
            ['card', 'A card, through Stripe', 'Monthly subscription; Stripe keeps the card'],
          ] as const
        ).map(([value, label, hint]) => (
          <label key={value} className="mb-2 flex cursor-pointer items-start gap-2 text-[13px]">
            <input
              type="radio"
              name={`${id}-method`}
              value={value}
              checked={method === value}
              onChange={() => {
                change.reset();
                setMethod(value);
              }}
              className="mt-0.5 size-4 accent-[var(--accent)]"
            />
            <span>
              <span className="block font-medium">{label}</span>
              <span className="block text-fg-2">{hint}</span>
            </span>
          </label>
        ))}
        {failure?.field ? (
          <p id={`${id}-error`} className="mt-1 text-[13px] text-[var(--tone-danger)]">
            {failure.message}
          </p>
        ) : null}
      </fieldset>
      <p className="rounded-md bg-muted px-3 py-2 text-[13px]" aria-live="polite">
        {method === 'wallet'
          ? `Charged now: ${price} from the wallet, then ${price} each month while the wallet can pay.`
          : `Charged now: nothing here. Stripe asks for the card and takes ${price} a month; the team turns Pro once Stripe confirms.`}
      </p>
    </FormDialog>
  );
}

function MoveToFree({
  open,
  onOpenChange,
  subscription: s,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  subscription: Subscription;
}) {
  const change = usePlanChange(() => onOpenChange(false));
  const paidUntil = s.billingMethod === 'wallet' ? s.wallet.proRenewsAt : null;
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={(next) => {
        if (!next) change.reset();
        onOpenChange(next);
      }}
      title="Move to the Free plan?"
      description={
        <>
          Pro ends now and the Free plan&apos;s limits apply at once.{' '}
          {paidUntil ? (
            <>
              The rest of the month paid until <Time value={paidUntil} /> is not refunded.
            </>
          ) : (
            'Nothing is refunded.'
          )}
        </>
      }
      confirmLabel="Move to Free"
      pending={change.isPending}
      error={change.error?.message}
      onConfirm={() => change.mutate({ plan: 'free' })}
    />
  );
}

export function ChangePlan(props: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  subscription: Subscription;
  balance: string | null;
}) {
  return props.subscription.plan === 'pro' ? <MoveToFree {...props} /> : <MoveToPro {...props} />;
}
