// "Send test": the saved template, with the sample values as variables, through POST /v1/emails to
// the signed-in member, from a verified domain of the team or the built-in one (which sends only to
// members, so a test always may).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { api, must } from '../api/client.ts';
import { useSignedIn } from '../api/session.ts';
import { useDomains } from '../lib/use-domains.ts';
import { Field, FormDialog, inputClass, splitFieldError } from '../ui/dialog.tsx';
import type { Samples } from './template-variables.tsx';

export function SendTestDialog({
  open,
  onOpenChange,
  templateId,
  variables,
  unsaved,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  templateId: string;
  variables: Samples;
  /** The editor holds changes the API has not stored: the test sends the saved version. */
  unsaved: boolean;
}) {
  const session = useSignedIn();
  const domains = useDomains();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const verified = (domains.data ?? []).filter((d) => d.status === 'SUCCESS').map((d) => d.name);
  const choices = [...verified, session.instance.mailDomain];
  const [chosen, setChosen] = useState<string | null>(null);
  const domain = chosen && choices.includes(chosen) ? chosen : choices[0]!;
  const to = session.member.email;
  const send = useMutation({
    mutationFn: () =>
      must(
        api.POST('/api/v1/emails', {
          body: {
            from: `hello@${domain}`,
            to,
            templateId,
            ...(Object.keys(variables).length ? { variables } : {}),
          },
        }),
      ),
    onSuccess: async (sent) => {
      onOpenChange(false);
      toast(`Test sent to ${to}`, {
        action: { label: 'View email', onClick: () => navigate(`/emails/${sent.emailId}`) },
      });
      await queryClient.invalidateQueries({ queryKey: ['emails'] });
    },
  });
  const failure = splitFieldError(send.error, ['from', 'variables']);
  return (
    <FormDialog
      open={open}
      onOpenChange={(next) => {
        if (!next) send.reset();
        onOpenChange(next);
      }}
      title="Send a test"
      description={`Sends the saved template to you (${to}) with the sample values.`}
      submitLabel="Send test"
      pending={send.isPending}
      error={failure && !failure.field ? failure.message : null}
      onSubmit={() => send.mutate()}
    >
      <Field
        label="From"
        hint={
          verified.length === 0
            ? `${session.instance.mailDomain} is the built-in domain: it sends only to your team's members.`
            : undefined
        }
        error={failure?.field === 'from' ? failure.message : undefined}
      >
        {(props) => (
          <select {...props} className={inputClass} value={domain} onChange={(e) => setChosen(e.target.value)}>
            {choices.map((name) => (
              <option key={name} value={name}>
                {`hello@${name}${name === session.instance.mailDomain ? ' (built-in)' : ''}`}
              </option>
            ))}
          </select>
        )}
      </Field>
      {failure?.field === 'variables' ? (
        <p className="text-[13px] text-[var(--tone-danger)]">{failure.message}</p>
      ) : null}
      {unsaved ? (
        <p role="note" className="rounded-md bg-[var(--tone-warning-bg)] p-2 text-[13px] text-[var(--tone-warning)]">
          You have unsaved changes: the test uses the version last saved.
        </p>
      ) : null}
    </FormDialog>
  );
}
