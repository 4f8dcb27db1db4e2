// A draft as a stepped form (Stripe's progress stepping): From → Subject → Audience → Content → Test
// send → Schedule. Each step says when it is done; Save (or ⌘S) sends only what changed (PATCH), and
// the API's errors sit beside their fields. A test or a schedule saves unsent changes first.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type KeyboardEvent } from 'react';
import { api, must } from '../api/client.ts';
import type { paths } from '../api/schema';
import { Button } from '../ui/button.tsx';
import { Field, inputClass } from '../ui/dialog.tsx';
import { AudienceFields } from './campaign-audience.tsx';
import { campaignFieldErrors, type Campaign } from './campaign-common.tsx';
import { ContentEditor, type BodyKind } from './campaign-content.tsx';
import { FromSuggestions, fromHint, useVerifiedDomains } from './campaign-create.tsx';
import { TestSend } from './campaign-send.tsx';
import { Step, StepList } from './campaign-steps.tsx';

interface Draft {
  name: string;
  from: string;
  replyTo: string;
  subject: string;
  previewText: string;
  bookId: string;
  segmentId: string;
  kind: BodyKind;
  html: string;
  templateId: string;
}

const FIELDS = [
  'name',
  'from',
  'replyTo',
  'subject',
  'previewText',
  'contactBookId',
  'segmentId',
  'html',
  'templateId',
  'content',
] as const;

function draftOf(c: Campaign): Draft {
  return {
    name: c.name,
    from: c.from,
    replyTo: c.replyTo.join(', '),
    subject: c.subject,
    previewText: c.previewText ?? '',
    bookId: c.contactBookId,
    segmentId: c.segmentId ?? '',
    kind: c.templateId ? 'template' : 'html',
    html: c.html ?? '',
    templateId: c.templateId ?? '',
  };
}

const addresses = (text: string) =>
  text
    .split(',')
    .map((a) => a.trim())
    .filter(Boolean);

type PatchBody = NonNullable<paths['/api/v1/campaigns/{id}']['patch']['requestBody']>['content']['application/json'];

/** Only what changed, so the API checks (and replaces) nothing else. */
function changes(before: Draft, after: Draft): PatchBody {
  const body: PatchBody = {};
  if (after.name !== before.name) body.name = after.name;
  if (after.from !== before.from) body.from = after.from.trim();
  if (after.replyTo !== before.replyTo) body.replyTo = addresses(after.replyTo);
  if (after.subject !== before.subject) body.subject = after.subject;
  if (after.previewText !== before.previewText) body.previewText = after.previewText;
  if (after.bookId !== before.bookId || after.segmentId !== before.segmentId) {
    body.contactBookId = after.bookId;
    if (after.segmentId) body.segmentId = after.segmentId;
  }
  if (after.kind === 'html' && (before.kind !== 'html' || after.html !== before.html)) body.html = after.html;
  if (after.kind === 'template' && (before.kind !== 'template' || after.templateId !== before.templateId))
    body.templateId = after.templateId;
  return body;
}

export function CampaignCompose({
  campaign,
  onSchedule,
}: {
  campaign: Campaign;
  onSchedule: (saveFirst: () => Promise<boolean>) => void;
}) {
  const queryClient = useQueryClient();
  const verified = useVerifiedDomains();
  const [base, setBase] = useState(() => draftOf(campaign));
  const [draft, setDraft] = useState(base);
  const [tested, setTested] = useState(false);
  const pending = changes(base, draft);
  const dirty = Object.keys(pending).length > 0;
  // Taking a segment off is not something PATCH can say (segmentId takes no null): said here, not sent.
  const segmentStuck = campaign.segmentId !== null && draft.segmentId === '';
  const save = useMutation({
    mutationFn: () =>
      must(api.PATCH('/api/v1/campaigns/{id}', { params: { path: { id: campaign.id } }, body: pending })),
    onSuccess: async (saved) => {
      queryClient.setQueryData(['campaigns', 'one', campaign.id], saved);
      const next = draftOf(saved);
      setBase(next);
      setDraft(next);
      await queryClient.invalidateQueries({ queryKey: ['campaigns', 'list'] });
    },
  });
  const saveFirst = async () => {
    if (!dirty) return true;
    if (segmentStuck) return false;
    try {
      await save.mutateAsync();
      return true;
    } catch {
      return false;
    }
  };
  // Unsaved changes are not lost to a reload or a closed tab without a question.
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);
  const errors = campaignFieldErrors(save.error, FIELDS);
  const e = errors.fields;
  const set = (change: Partial<Draft>) => setDraft((d) => ({ ...d, ...change }));
  const hasBody = campaign.html !== null || campaign.templateId !== null;
  const steps = [
    { id: 'step-from', title: 'From', done: campaign.from !== '' },
    { id: 'step-subject', title: 'Subject', done: campaign.subject !== '' },
    { id: 'step-audience', title: 'Audience', done: campaign.contactBookId !== '' },
    { id: 'step-content', title: 'Content', done: hasBody },
    { id: 'step-test', title: 'Test send', done: tested },
    { id: 'step-schedule', title: 'Schedule', done: false },
  ];
  const submitKeys = (event: KeyboardEvent) => {
    if (event.key === 's' && (event.metaKey || event.ctrlKey)) {
      event.preventDefault();
      if (dirty && !segmentStuck) save.mutate();
    }
  };

  return (
    <div className="space-y-5">
      <StepList steps={steps} />
      <form
        noValidate
        aria-label="Compose"
        onKeyDown={submitKeys}
        onSubmit={(event) => {
          event.preventDefault();
          if (!segmentStuck) save.mutate();
        }}
        className="space-y-5"
      >
        <Step id="step-from" n={1} title="From" done={steps[0]!.done}>
          <div className="grid gap-3 md:grid-cols-2">
            <Field label="Campaign name" error={e.name}>
              {(p) => (
                <input
                  {...p}
                  className={inputClass}
                  value={draft.name}
                  onChange={(ev) => set({ name: ev.target.value })}
                />
              )}
            </Field>
            <Field label="From" hint={fromHint(verified)} error={e.from}>
              {(p) => (
                <>
                  <input
                    {...p}
                    className={inputClass}
                    list="campaign-compose-from"
                    autoComplete="off"
                    value={draft.from}
                    onChange={(ev) => set({ from: ev.target.value })}
                  />
                  <FromSuggestions id="campaign-compose-from" verified={verified} />
                </>
              )}
            </Field>
            <Field label="Reply-To (optional)" hint="One address, or several separated by commas." error={e.replyTo}>
              {(p) => (
                <input
                  {...p}
                  className={inputClass}
                  value={draft.replyTo}
                  onChange={(ev) => set({ replyTo: ev.target.value })}
                />
              )}
            </Field>
          </div>
        </Step>
        <Step id="step-subject" n={2} title="Subject" done={steps[1]!.done}>
          <div className="grid gap-3 md:grid-cols-2">
            <Field label="Subject" error={e.subject}>
              {(p) => (
                <input
                  {...p}
                  className={inputClass}
                  value={draft.subject}
                  onChange={(ev) => set({ subject: ev.target.value })}
                />
              )}
            </Field>
            <Field
              label="Preview text (optional)"
              hint="Shown after the subject in most inboxes."
              error={e.previewText}
            >
              {(p) => (
                <input
                  {...p}
                  className={inputClass}
                  value={draft.previewText}
                  onChange={(ev) => set({ previewText: ev.target.value })}
                />
              )}
            </Field>
          </div>
        </Step>
        <Step id="step-audience" n={3} title="Audience" done={steps[2]!.done}>
          <div className="max-w-xl">
            <AudienceFields
              bookId={draft.bookId}
              segmentId={draft.segmentId}
              onChange={(bookId, segmentId) => set({ bookId, segmentId })}
              errors={{
                contactBookId: e.contactBookId,
                segmentId:
                  e.segmentId ??
                  (segmentStuck
                    ? 'A segment cannot be taken off a campaign through the API yet: choose a segment.'
                    : undefined),
              }}
            />
          </div>
        </Step>
        <Step id="step-content" n={4} title="Content" done={steps[3]!.done}>
          <ContentEditor
            kind={draft.kind}
            html={draft.html}
            templateId={draft.templateId}
            onChange={(change) => set(change)}
            errors={{ html: e.html, templateId: e.templateId, content: e.content }}
            fromEditorDocument={campaign.content !== null}
          />
        </Step>
        <div className="sticky bottom-0 z-10 flex flex-wrap items-center gap-3 border-t border-line bg-bg py-3">
          <Button type="submit" variant="primary" disabled={!dirty || save.isPending || segmentStuck}>
            {save.isPending ? 'Saving…' : 'Save draft'}
          </Button>
          <span role="status" aria-live="polite" className="text-[13px] text-fg-2">
            {dirty ? 'Unsaved changes' : 'All changes saved'}
          </span>
          {errors.rest ? (
            <p role="alert" className="w-full text-[13px] text-[var(--tone-danger)]">
              {errors.rest}
            </p>
          ) : null}
        </div>
      </form>
      <Step id="step-test" n={5} title="Test send" done={tested}>
        <TestSend campaign={campaign} saveFirst={saveFirst} onSent={() => setTested(true)} />
      </Step>
      <Step id="step-schedule" n={6} title="Schedule" done={false}>
        <p className="mb-2 text-[13px] text-fg-2">
          Send it now, or at a date and time; it can be paused until it is sent.
        </p>
        <Button variant="primary" onClick={() => onSchedule(saveFirst)}>
          Schedule…
        </Button>
      </Step>
    </div>
  );
}
