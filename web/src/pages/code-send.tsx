// "Send test code": a one-time code by email (from a verified domain of the team) or SMS (charged to
// the wallet), with the API's field errors beside the fields. A code refused for its risk is stored
// by the API with an id (422 carries it): it is opened in the log too, so its reasons can be read.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, toFailure } from '../api/client.ts';
import { useSignedIn } from '../api/session.ts';
import { Field, FormDialog, inputClass, splitFieldError } from '../ui/dialog.tsx';

type Channel = 'email' | 'sms';

export function SendTestCode({
  open,
  onOpenChange,
  onSent,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onSent: (id: string) => void;
}) {
  const session = useSignedIn();
  const [channel, setChannel] = useState<Channel>('email');
  const [to, setTo] = useState(session.member.email);
  const [appName, setAppName] = useState('');
  const [from, setFrom] = useState('');
  const queryClient = useQueryClient();
  const send = useMutation({
    mutationFn: async () => {
      const body = {
        to: to.trim(),
        channel,
        ...(appName.trim() ? { appName: appName.trim() } : {}),
        ...(channel === 'email' && from.trim() ? { from: from.trim() } : {}),
      };
      const { data, error, response } = await api.POST('/api/v1/verify/send', { body });
      if (response.status === 422 && error && 'id' in error && typeof error.id === 'string') {
        await queryClient.invalidateQueries({ queryKey: ['verify', 'list'] });
        onSent(error.id);
      }
      if (!response.ok || !data) throw toFailure(response.status, error);
      return data;
    },
    onSuccess: async (code) => {
      // The log is read again first, so the new code opens in its row rather than on its own.
      await queryClient.invalidateQueries({ queryKey: ['verify', 'list'] });
      onOpenChange(false);
      onSent(code.id);
      await queryClient.invalidateQueries({ queryKey: ['sms'] });
    },
  });
  const failure = splitFieldError(send.error, ['to', 'channel', 'appName', 'from', 'senderId']);
  const fieldError = (name: string) => (failure?.field === name ? failure.message : undefined);
  const pick = (next: Channel) => {
    setChannel(next);
    send.reset();
    if (next === 'sms' && to === session.member.email) setTo('');
    if (next === 'email' && to === '') setTo(session.member.email);
  };
  return (
    <FormDialog
      open={open}
      onOpenChange={(next) => {
        if (!next) send.reset();
        onOpenChange(next);
      }}
      title="Send a test code"
      description="A real one-time code, scored for risk like any other. An SMS code is charged to the wallet."
      submitLabel="Send code"
      pending={send.isPending}
      error={failure && !failure.field ? failure.message : null}
      onSubmit={() => send.mutate()}
    >
      <fieldset>
        <legend className="mb-1 text-[13px] font-medium">Channel</legend>
        <div className="flex gap-4 text-[13px]">
          {(['email', 'sms'] as const).map((value) => (
            <label key={value} className="flex items-center gap-2">
              <input
                type="radio"
                name="code-channel"
                className="size-4 accent-[var(--accent)]"
                checked={channel === value}
                onChange={() => pick(value)}
              />
              {value === 'email' ? 'Email' : 'SMS'}
            </label>
          ))}
        </div>
      </fieldset>
      <Field
        label="To"
        hint={channel === 'sms' ? 'E.164, e.g. +14155550123' : 'An email address'}
        error={fieldError('to')}
      >
        {(props) => (
          <input
            {...props}
            className={inputClass}
            type={channel === 'sms' ? 'tel' : 'email'}
            autoComplete="off"
            value={to}
            onChange={(e) => setTo(e.target.value)}
          />
        )}
      </Field>
      <Field
        label={channel === 'sms' ? 'App name' : 'App name (optional)'}
        hint={channel === 'sms' ? 'Shown in the SMS; at most 60 characters' : 'Default: the team name'}
        error={fieldError('appName')}
      >
        {(props) => (
          <input {...props} className={inputClass} value={appName} onChange={(e) => setAppName(e.target.value)} />
        )}
      </Field>
      {channel === 'email' ? (
        <Field
          label="From (optional)"
          hint="An address on a verified domain of the team; default no-reply@ its first verified domain"
          error={fieldError('from')}
        >
          {(props) => (
            <input
              {...props}
              className={inputClass}
              type="email"
              value={from}
              onChange={(e) => setFrom(e.target.value)}
            />
          )}
        </Field>
      ) : null}
    </FormDialog>
  );
}
