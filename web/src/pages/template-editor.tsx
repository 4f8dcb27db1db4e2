// The template editor: name, subject, preview text, type and the body (HTML or blocks) on the left,
// the live preview on the right (below under 1536 px); ⌘S or Save sends only what changed, and the
// API's field errors sit beside their fields. Send test and Delete live in the header.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { api, ApiFailure, must } from '../api/client.ts';
import type { paths } from '../api/schema';
import { Button } from '../ui/button.tsx';
import { CopyableId } from '../ui/copy-button.tsx';
import { CopyCurl } from '../ui/copy-curl.tsx';
import { Field, inputClass, splitFieldError } from '../ui/dialog.tsx';
import { PageHeader } from '../ui/page-header.tsx';
import { Tag } from '../ui/status-badge.tsx';
import { Time } from '../ui/time.tsx';
import { BodyEditor, prettyDocument, useBodyMode } from './template-body.tsx';
import { typeLabel } from './template-create.tsx';
import { DeleteTemplateDialog } from './template-delete.tsx';
import { TemplatePreview } from './template-preview.tsx';
import { SendTestDialog } from './template-send-test.tsx';
import { detectVariables, fillSamples, usedSamples, VariablesPanel, type Samples } from './template-variables.tsx';

export type Template = paths['/api/v1/templates/{templateId}']['get']['responses'][200]['content']['application/json'];
type Patch = NonNullable<
  paths['/api/v1/templates/{templateId}']['patch']['requestBody']
>['content']['application/json'];

const FIELDS = ['name', 'subject', 'previewText', 'type', 'html', 'content'];

function draftOf(t: Template) {
  return {
    name: t.name,
    subject: t.subject,
    previewText: t.previewText ?? '',
    type: t.type,
    html: t.html ?? '',
    content: prettyDocument(t.content),
  };
}

/** Only the fields that differ from the saved template; the body only when its own text changed. */
function changes(saved: ReturnType<typeof draftOf>, draft: ReturnType<typeof draftOf>, mode: string): Patch {
  const patch: Patch = {};
  if (draft.name !== saved.name) patch.name = draft.name;
  if (draft.subject !== saved.subject) patch.subject = draft.subject;
  if (draft.previewText !== saved.previewText) patch.previewText = draft.previewText === '' ? null : draft.previewText;
  if (draft.type !== saved.type) patch.type = draft.type;
  const htmlChanged = draft.html !== saved.html;
  const contentChanged = draft.content !== saved.content;
  if (contentChanged && (mode === 'blocks' || !htmlChanged)) patch.content = draft.content;
  else if (htmlChanged) patch.html = draft.html;
  return patch;
}

export function TemplateEditor({
  template,
  samples,
  onSamples,
}: {
  template: Template;
  samples: Samples;
  onSamples: (next: Samples) => void;
}) {
  const saved = draftOf(template);
  const [draft, setDraft] = useState(saved);
  const [mode, setMode] = useBodyMode(template.content !== null ? 'blocks' : 'html');
  const [dialog, setDialog] = useState<'send' | 'delete' | null>(null);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const patch = changes(saved, draft, mode);
  const dirty = Object.keys(patch).length > 0;

  const save = useMutation({
    mutationFn: (body: Patch) =>
      must(api.PATCH('/api/v1/templates/{templateId}', { params: { path: { templateId: template.id } }, body })),
    onSuccess: async (updated) => {
      toast('Template saved');
      // What the API stored (sanitised HTML, the document re-serialised) becomes the draft.
      queryClient.setQueryData(['templates', 'one', template.id], updated);
      setDraft(draftOf(updated));
      await queryClient.invalidateQueries({ queryKey: ['templates', 'list'] });
    },
  });
  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (dirty && !save.isPending) save.mutate(patch);
  };
  // ⌘S / Ctrl+S saves (design brief, Templates); the latest submit is read through a ref.
  const submitRef = useRef(submit);
  submitRef.current = submit;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.metaKey || event.ctrlKey) && event.key.toLowerCase() === 's') {
        event.preventDefault();
        submitRef.current();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  // A dirty editor guards leaving the page (reload, close); in-app links cannot be held by BrowserRouter.
  useEffect(() => {
    if (!dirty) return;
    const onUnload = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', onUnload);
    return () => window.removeEventListener('beforeunload', onUnload);
  }, [dirty]);

  const failure = splitFieldError(save.error, FIELDS);
  // A document's problems name their path (content.blocks[2].href: …), which splitFieldError
  // does not take for a field: they belong beside the document, path and all.
  const documentError =
    save.error instanceof ApiFailure && save.error.status === 400 && /^content[.[:]/.test(save.error.message)
      ? save.error.message
      : undefined;
  const fieldError = (field: string) => (failure?.field === field ? failure.message : undefined);
  // A body error whose tab is not shown goes to the form alert, so it is never hidden.
  const hiddenBodyError = (mode !== 'html' && failure?.field === 'html') || (mode !== 'blocks' && !!documentError);
  const formError = hiddenBodyError
    ? (save.error?.message ?? null)
    : failure && !failure.field && !documentError
      ? failure.message
      : null;
  // An edit answers the last refusal: its error goes until the next save.
  const set = (field: keyof typeof draft) => (value: string) => {
    if (save.isError) save.reset();
    setDraft((d) => ({ ...d, [field]: value }));
  };
  const names = detectVariables(draft.subject, draft.previewText, mode === 'html' ? draft.html : draft.content);
  const previewHtml = mode === 'html' ? draft.html : template.html;

  return (
    <>
      <title>{`${template.name} · Templates · Herald`}</title>
      <nav aria-label="Breadcrumb" className="mb-2 text-[13px] text-fg-2">
        <Link to="/templates" className="hover:underline">
          Templates
        </Link>
      </nav>
      <PageHeader
        title={template.name}
        badges={<Tag>{typeLabel(template.type)}</Tag>}
        facts={
          <>
            <CopyableId id={template.id} what="template" />
            <span>
              Updated <Time value={template.updatedAt} />
            </span>
            {dirty ? <span className="text-[var(--tone-warning)]">Unsaved changes</span> : null}
          </>
        }
        actions={
          <>
            <CopyCurl path={`/api/v1/templates/${template.id}`} />
            <Button variant="danger" onClick={() => setDialog('delete')}>
              Delete
            </Button>
            <Button onClick={() => setDialog('send')}>Send test</Button>
            <Button type="submit" form="template-form" variant="primary" disabled={!dirty || save.isPending}>
              {save.isPending ? 'Saving…' : 'Save'}
            </Button>
          </>
        }
      />
      <form id="template-form" noValidate onSubmit={submit} className="grid gap-6 2xl:grid-cols-[minmax(0,1fr)_auto]">
        <div className="min-w-0 space-y-4">
          <div className="grid gap-4 sm:grid-cols-2">
            <Field label="Name" error={fieldError('name')}>
              {(props) => (
                <input
                  {...props}
                  className={inputClass}
                  value={draft.name}
                  onChange={(e) => set('name')(e.target.value)}
                />
              )}
            </Field>
            <Field label="Type" error={fieldError('type')}>
              {(props) => (
                <select
                  {...props}
                  className={inputClass}
                  value={draft.type}
                  onChange={(e) => set('type')(e.target.value)}
                >
                  <option value="TRANSACTIONAL">Transactional</option>
                  <option value="MARKETING">Marketing (adds the unsubscribe footer)</option>
                </select>
              )}
            </Field>
          </div>
          <Field label="Subject" error={fieldError('subject')}>
            {(props) => (
              <input
                {...props}
                className={inputClass}
                value={draft.subject}
                onChange={(e) => set('subject')(e.target.value)}
              />
            )}
          </Field>
          <Field label="Preview text" hint="Shown after the subject in most inboxes" error={fieldError('previewText')}>
            {(props) => (
              <input
                {...props}
                className={inputClass}
                value={draft.previewText}
                onChange={(e) => set('previewText')(e.target.value)}
              />
            )}
          </Field>
          <BodyEditor
            mode={mode}
            onMode={setMode}
            html={draft.html}
            onHtml={set('html')}
            content={draft.content}
            onContent={set('content')}
            htmlError={fieldError('html')}
            contentError={documentError ?? fieldError('content')}
            storedAsBlocks={template.content !== null}
          />
          {formError ? (
            <p role="alert" className="text-[13px] text-[var(--tone-danger)]">
              {formError}
            </p>
          ) : null}
          <VariablesPanel names={names} samples={samples} onChange={onSamples} />
        </div>
        <TemplatePreview
          subject={fillSamples(draft.subject, samples, false)}
          previewText={fillSamples(draft.previewText, samples, false)}
          html={previewHtml ? fillSamples(previewHtml, samples, true) : null}
          note={
            mode === 'blocks'
              ? draft.content !== saved.content
                ? 'The API renders blocks when you save: this is the saved version. Save to see your changes.'
                : 'Rendered by the API from the saved blocks.'
              : undefined
          }
        />
      </form>
      <SendTestDialog
        open={dialog === 'send'}
        onOpenChange={(open) => setDialog(open ? 'send' : null)}
        templateId={template.id}
        variables={usedSamples(names, samples)}
        unsaved={dirty}
      />
      <DeleteTemplateDialog
        template={dialog === 'delete' ? template : null}
        onClose={() => setDialog(null)}
        onDeleted={() => navigate('/templates')}
      />
    </>
  );
}
