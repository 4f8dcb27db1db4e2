// "New campaign": name, from, subject and audience make a DRAFT; the rest is composed on its page.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { api, must } from '../api/client.ts';
import { useDomains } from '../lib/use-domains.ts';
import { Field, FormDialog, inputClass } from '../ui/dialog.tsx';
import { AudienceFields } from './campaign-audience.tsx';
import { campaignFieldErrors } from './campaign-common.tsx';

const FIELDS = ['name', 'from', 'subject', 'contactBookId', 'segmentId'] as const;

/** The team's verified domains, for the From hint and suggestions. */
export function useVerifiedDomains(): string[] {
  const domains = useDomains();
  return (domains.data ?? []).filter((d) => d.status === 'SUCCESS').map((d) => d.name);
}

export function fromHint(verified: string[]): string {
  return verified.length > 0
    ? `An address on a verified domain: ${verified.join(', ')}. Name <address> works too.`
    : 'No verified domain yet: add one under Domains (the built-in domain sends only to members).';
}

/** Suggested From addresses, one per verified domain. */
export function FromSuggestions({ id, verified }: { id: string; verified: string[] }) {
  return (
    <datalist id={id}>
      {verified.map((name) => (
        <option key={name} value={`hello@${name}`} />
      ))}
    </datalist>
  );
}

export function CreateCampaign({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const verified = useVerifiedDomains();
  const [name, setName] = useState('');
  const [from, setFrom] = useState('');
  const [subject, setSubject] = useState('');
  const [bookId, setBookId] = useState('');
  const [segmentId, setSegmentId] = useState('');
  const create = useMutation({
    mutationFn: () =>
      must(
        api.POST('/api/v1/campaigns', {
          body: {
            name: name.trim(),
            from: from.trim(),
            subject,
            contactBookId: bookId,
            ...(segmentId ? { segmentId } : {}),
          },
        }),
      ),
    onSuccess: async (campaign) => {
      await queryClient.invalidateQueries({ queryKey: ['campaigns'] });
      onOpenChange(false);
      navigate(`/campaigns/${campaign.id}`);
    },
  });
  const errors = campaignFieldErrors(create.error, FIELDS);
  return (
    <FormDialog
      open={open}
      onOpenChange={(next) => {
        if (!next) create.reset();
        onOpenChange(next);
      }}
      title="New campaign"
      description="One email to the subscribed contacts of a book, or of a segment of it. You write its content next."
      submitLabel="Create campaign"
      pending={create.isPending}
      error={errors.rest}
      onSubmit={() => create.mutate()}
    >
      <Field label="Name" hint="For your team only; recipients never see it." error={errors.fields.name}>
        {(props) => <input {...props} className={inputClass} value={name} onChange={(e) => setName(e.target.value)} />}
      </Field>
      <Field label="From" hint={fromHint(verified)} error={errors.fields.from}>
        {(props) => (
          <>
            <input
              {...props}
              className={inputClass}
              list="campaign-create-from"
              autoComplete="off"
              placeholder={verified[0] ? `News <news@${verified[0]}>` : 'News <news@example.com>'}
              value={from}
              onChange={(e) => setFrom(e.target.value)}
            />
            <FromSuggestions id="campaign-create-from" verified={verified} />
          </>
        )}
      </Field>
      <Field label="Subject" error={errors.fields.subject}>
        {(props) => (
          <input {...props} className={inputClass} value={subject} onChange={(e) => setSubject(e.target.value)} />
        )}
      </Field>
      <AudienceFields
        bookId={bookId}
        segmentId={segmentId}
        onChange={(book, segment) => {
          setBookId(book);
          setSegmentId(segment);
        }}
        errors={{ contactBookId: errors.fields.contactBookId, segmentId: errors.fields.segmentId }}
      />
    </FormDialog>
  );
}
