// "Send test SMS": to, text, an optional sender ID; the API's field errors beside the fields and the
// rest (402 when the wallet cannot pay, 403 when SMS is off, 422 risk refusals) in the form alert.
// Once queued, a notice gives the charge and the wallet balance after it.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { X } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { api, ApiFailure, must } from '../api/client.ts';
import { Field, FormDialog, inputClass, splitFieldError } from '../ui/dialog.tsx';
import { formatCharge, type SmsMessage } from './sms-format.ts';

/** Why a send was refused, in plain words: the API's message, with what it means for the money. */
function refusal(error: unknown): string | null {
  if (!(error instanceof ApiFailure)) return error instanceof Error ? error.message : null;
  if (error.status === 402) return `${error.message}. Nothing was sent and nothing was charged.`;
  if (error.status === 422) return `${error.message}. Nothing was sent and nothing was charged.`;
  return error.message;
}

export function SendTestSms({
  open,
  onOpenChange,
  onSent,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onSent: (sms: SmsMessage) => void;
}) {
  const [to, setTo] = useState('');
  const [text, setText] = useState('This is a test SMS from Herald.');
  const [senderId, setSenderId] = useState('');
  const queryClient = useQueryClient();
  const send = useMutation({
    mutationFn: () =>
      must(
        api.POST('/api/v1/sms', {
          body: { to: to.trim(), text, ...(senderId.trim() ? { senderId: senderId.trim() } : {}) },
        }),
      ),
    onSuccess: async (sms) => {
      onOpenChange(false);
      onSent(sms);
      await queryClient.invalidateQueries({ queryKey: ['sms'] });
      await queryClient.invalidateQueries({ queryKey: ['billing'] });
    },
  });
  const failure = splitFieldError(send.error, ['to', 'text', 'senderId']);
  const fieldError = (name: string) => (failure?.field === name ? failure.message : undefined);
  return (
    <FormDialog
      open={open}
      onOpenChange={(next) => {
        if (!next) send.reset();
        onOpenChange(next);
      }}
      title="Send a test SMS"
      description="Charged to the team wallet like any SMS: segments × the destination's price."
      submitLabel="Send SMS"
      pending={send.isPending}
      error={failure && !failure.field ? refusal(send.error) : null}
      onSubmit={() => send.mutate()}
    >
      <Field label="To" hint="E.164: + and the country code, no spaces, e.g. +14155550123" error={fieldError('to')}>
        {(props) => (
          <input
            {...props}
            className={inputClass}
            type="tel"
            autoComplete="off"
            placeholder="+14155550123"
            value={to}
            onChange={(e) => setTo(e.target.value)}
          />
        )}
      </Field>
      <Field
        label="Text"
        hint={`${text.length.toLocaleString('en-US')} of 1,600 characters`}
        error={fieldError('text')}
      >
        {(props) => (
          <textarea
            {...props}
            className="h-24 w-full rounded-md border border-control bg-bg px-2 py-1.5 text-[13px] placeholder:text-fg-2"
            value={text}
            onChange={(e) => setText(e.target.value)}
          />
        )}
      </Field>
      <Field
        label="Sender ID (optional)"
        hint="At most 11 characters, approved for the team; empty: the team's approved one, else the shared one"
        error={fieldError('senderId')}
      >
        {(props) => (
          <input {...props} className={inputClass} value={senderId} onChange={(e) => setSenderId(e.target.value)} />
        )}
      </Field>
    </FormDialog>
  );
}

/** What the test send cost: its charge, and the wallet balance after it when this member may read billing. */
export function SentNotice({ sms, onDismiss }: { sms: SmsMessage; onDismiss: () => void }) {
  const wallet = useQuery({
    queryKey: ['billing', 'transactions', 'latest'],
    queryFn: ({ signal }) => must(api.GET('/api/v1/billing/transactions', { params: { query: { limit: 1 } }, signal })),
    retry: false,
  });
  const balance = wallet.data?.data[0]?.balanceAfterFormatted;
  return (
    <div
      role="status"
      className="mb-4 flex items-start justify-between gap-3 rounded-md bg-[var(--tone-info-bg)] p-3 text-[13px] text-[var(--tone-info)]"
    >
      <p>
        Test SMS to <span className="font-mono">{sms.to}</span> queued: {sms.segments}{' '}
        {sms.segments === 1 ? 'segment' : 'segments'}, charged{' '}
        <strong className="tabular">{formatCharge(sms.charge)}</strong>
        {balance ? (
          <>
            . Wallet balance after: <strong className="tabular">{balance}</strong>
          </>
        ) : null}
        .{' '}
        <Link to={`/sms?sms=${encodeURIComponent(sms.id)}`} className="underline underline-offset-2">
          Open it
        </Link>
      </p>
      <button
        type="button"
        aria-label="Dismiss"
        className="inline-flex size-6 shrink-0 items-center justify-center rounded hover:bg-black/5"
        onClick={onDismiss}
      >
        <X aria-hidden="true" size={14} />
      </button>
    </div>
  );
}
