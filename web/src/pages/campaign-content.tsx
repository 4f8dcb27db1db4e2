// A campaign's body: HTML written here with a live preview in the sandboxed frame (no scripts, no
// same-origin, images only on request), or one of the team's templates. The unsubscribe link is
// required before scheduling, so its absence is said here, with a button that adds one.
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api, must } from '../api/client.ts';
import { Button } from '../ui/button.tsx';
import { Field, inputClass } from '../ui/dialog.tsx';
import { EmailPreview } from './email-preview.tsx';

export type BodyKind = 'html' | 'template';

const UNSUBSCRIBE = /\{\{\s*(unsubscribeUrl|usesend_unsubscribe_url|unsend_unsubscribe_url)\s*\}\}/;
const UNSUBSCRIBE_LINK = '\n<p><a href="{{unsubscribeUrl}}">Unsubscribe</a></p>';

export function useTemplates() {
  return useQuery({
    queryKey: ['campaign-content', 'templates'],
    queryFn: ({ signal }) => must(api.GET('/api/v1/templates', { params: { query: { limit: 100 } }, signal })),
    staleTime: 60_000,
  });
}

/** The value, 300 ms after it last changed: the frame reloads on pauses, not on every key. */
function useSettled<T>(value: T, ms = 300): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

function UnsubscribeNote({ html, onAdd }: { html: string; onAdd?: () => void }) {
  if (html === '' || UNSUBSCRIBE.test(html)) return null;
  return (
    <div
      role="note"
      className="flex flex-wrap items-center gap-2 rounded-md bg-[var(--tone-warning-bg)] p-2 text-[13px] text-[var(--tone-warning)]"
    >
      <span>
        No <code className="font-mono">{'{{unsubscribeUrl}}'}</code> link yet: a campaign cannot be scheduled without
        one.
      </span>
      {onAdd ? <Button onClick={onAdd}>Add an unsubscribe link</Button> : null}
    </div>
  );
}

export function ContentEditor({
  kind,
  html,
  templateId,
  onChange,
  errors,
  fromEditorDocument,
}: {
  kind: BodyKind;
  html: string;
  templateId: string;
  onChange: (change: { kind?: BodyKind; html?: string; templateId?: string }) => void;
  errors: { html?: string; templateId?: string; content?: string };
  /** The stored body came from useSend's editor document: saving HTML here replaces it. */
  fromEditorDocument: boolean;
}) {
  const templates = useTemplates();
  const settledHtml = useSettled(html);
  const template = templates.data?.find((t) => t.id === templateId);
  const previewHtml = kind === 'html' ? settledHtml : (template?.html ?? '');
  return (
    <div className="space-y-3">
      <fieldset className="flex flex-wrap gap-4">
        <legend className="mb-1 text-[13px] font-medium">Body</legend>
        {(
          [
            ['html', 'HTML written here'],
            ['template', 'A template'],
          ] as const
        ).map(([value, label]) => (
          <label key={value} className="flex items-center gap-2 text-[13px]">
            <input
              type="radio"
              name="campaign-body-kind"
              className="size-4 accent-[var(--accent)]"
              checked={kind === value}
              onChange={() => onChange({ kind: value })}
            />
            {label}
          </label>
        ))}
      </fieldset>
      <div className="grid gap-4 xl:grid-cols-2">
        <div className="min-w-0 space-y-2">
          {kind === 'html' ? (
            <Field
              label="HTML"
              hint={
                fromEditorDocument
                  ? 'Rendered from an editor document sent through the API; saving this HTML replaces that document.'
                  : 'Variables: {{firstName}}, {{lastName}}, {{email}} and the book’s own; {{unsubscribeUrl}} is required.'
              }
              error={errors.html ?? errors.content}
            >
              {(props) => (
                <textarea
                  {...props}
                  spellCheck={false}
                  className="block h-[360px] w-full resize-y rounded-md border border-control bg-bg p-2 font-mono text-[12px] leading-5"
                  value={html}
                  onChange={(e) => onChange({ html: e.target.value })}
                />
              )}
            </Field>
          ) : (
            <Field
              label="Template"
              hint={templates.data?.length === 0 ? 'This team has no template yet.' : undefined}
              error={errors.templateId ?? (templates.isError ? templates.error.message : undefined)}
            >
              {(props) => (
                <select
                  {...props}
                  className={inputClass}
                  value={templateId}
                  onChange={(e) => onChange({ templateId: e.target.value })}
                >
                  <option value="">{templates.isPending ? 'Loading…' : 'Choose a template'}</option>
                  {templates.data?.map((t) => (
                    <option key={t.id} value={t.id}>
                      {t.name}
                    </option>
                  ))}
                </select>
              )}
            </Field>
          )}
          <UnsubscribeNote
            html={kind === 'html' ? html : (template?.html ?? '')}
            onAdd={kind === 'html' ? () => onChange({ html: html + UNSUBSCRIBE_LINK }) : undefined}
          />
        </div>
        <div className="min-w-0">
          <p className="mb-1 text-[13px] font-medium">Preview</p>
          {previewHtml ? (
            <EmailPreview html={previewHtml} />
          ) : (
            <p className="rounded-lg border border-dashed border-line p-6 text-center text-[13px] text-fg-2">
              The preview shows here as you write.
            </p>
          )}
        </div>
      </div>
    </div>
  );
}

/** The stored body, read only (a campaign past its draft): its HTML, or its template's. */
export function ContentPreview({ html, templateId }: { html: string | null; templateId: string | null }) {
  const templates = useTemplates();
  const template = templateId ? templates.data?.find((t) => t.id === templateId) : undefined;
  const body = html ?? template?.html ?? null;
  if (templateId && templates.isPending) return <p className="text-[13px] text-fg-2">Loading the template…</p>;
  if (!body) return <p className="text-[13px] text-fg-2">This campaign has no body.</p>;
  return (
    <div className="space-y-2">
      {template ? <p className="text-[13px] text-fg-2">Template: {template.name}</p> : null}
      <EmailPreview html={body} />
    </div>
  );
}
