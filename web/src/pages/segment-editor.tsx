// A segment's editor: name, description, the condition builder and Save (create or update), the API's
// errors beside the field or condition they name; the live count and the first matching contacts of
// the definition as edited beside it (the preview's 400 placed like the save's); Delete after a
// confirm; the definition as the JSON the API takes.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { api, ApiFailure, must } from '../api/client.ts';
import { Button } from '../ui/button.tsx';
import { CopyableId } from '../ui/copy-button.tsx';
import { CopyCurl } from '../ui/copy-curl.tsx';
import { ConfirmDialog, Field, inputClass } from '../ui/dialog.tsx';
import { MonoBlock } from '../ui/mono-block.tsx';
import { PageHeader } from '../ui/page-header.tsx';
import { Time } from '../ui/time.tsx';
import { bookTitle, segmentKeys, type Book, type Segment } from './contact-queries.tsx';
import { SegmentBuilder } from './segment-builder.tsx';
import {
  newLeaf,
  placeErrors,
  sameDefinition,
  toDefinition,
  toDraft,
  type Definition,
  type DefinitionDraft,
  type PlacedError,
} from './segment-definition.tsx';
import { SegmentContacts, SegmentCount } from './segment-matches.tsx';
import { useSegmentPreview } from './segment-preview.tsx';
import { usePickerLookups } from './segment-queries.tsx';

type SegmentBody = { name: string; description: string | null; definition: Definition };

export function SegmentEditor({
  book,
  segment,
  bookPicker,
}: {
  book: Book;
  segment: Segment | null;
  /** New segments: the book select, shown above the name. */
  bookPicker?: ReactNode;
}) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const lookups = usePickerLookups();
  const [name, setName] = useState(segment?.name ?? '');
  const [description, setDescription] = useState(segment?.description ?? '');
  const [draft, setDraft] = useState<DefinitionDraft>(() =>
    segment ? toDraft(segment.definition) : { match: 'all', conditions: [newLeaf('subscribed', book.variables)] },
  );
  const [confirming, setConfirming] = useState(false);
  const definition = toDefinition(draft);
  const body = { name: name.trim(), description: description.trim() || null, definition };
  const definitionChanged = segment !== null && !sameDefinition(segment.definition, definition);
  const dirty =
    segment === null || definitionChanged || body.name !== segment.name || body.description !== segment.description;
  const path = { contactBookId: book.id };
  const preview = useSegmentPreview({ bookId: book.id, segmentId: segment?.id ?? null, definition });

  const save = useMutation({
    mutationFn: (sent: SegmentBody) =>
      segment
        ? must(
            api.PATCH('/api/v1/contactBooks/{contactBookId}/segments/{segmentId}', {
              params: { path: { ...path, segmentId: segment.id } },
              body: sent,
            }),
          )
        : must(api.POST('/api/v1/contactBooks/{contactBookId}/segments', { params: { path }, body: sent })),
    onSuccess: async (saved) => {
      queryClient.setQueryData(segmentKeys.one(book.id, saved.id), saved);
      toast(segment ? 'Segment saved' : 'Segment created');
      await queryClient.invalidateQueries({ queryKey: segmentKeys.book(book.id) });
      if (!segment) navigate(`/segments/${saved.id}?book=${encodeURIComponent(book.id)}`, { replace: true });
    },
  });
  const remove = useMutation({
    mutationFn: (id: string) =>
      must(
        api.DELETE('/api/v1/contactBooks/{contactBookId}/segments/{segmentId}', {
          params: { path: { ...path, segmentId: id } },
        }),
      ),
    onSuccess: async () => {
      toast('Segment deleted');
      await queryClient.invalidateQueries({ queryKey: segmentKeys.all });
      navigate('/segments', { replace: true });
    },
  });

  const errors =
    save.error instanceof ApiFailure && save.error.status === 409
      ? [{ condition: null, field: 'name', message: save.error.message }]
      : save.error instanceof ApiFailure && save.error.status === 400
        ? placeErrors(save.error.message)
        : [];
  const fieldError = (field: string) =>
    errors
      .filter((e) => e.condition === null && e.field === field)
      .map((e) => e.message)
      .join('; ') || undefined;
  const inBuilder = (e: PlacedError) => e.condition !== null || !['name', 'description'].includes(e.field ?? '');
  // A save's complaint about the definition holds while that definition is still the one shown; the
  // preview judges every edit after it. Each message once.
  const savedThis = save.variables !== undefined && sameDefinition(save.variables.definition, definition);
  const builderErrors = [...preview.errors, ...(savedThis ? errors : [])]
    .filter(inBuilder)
    .filter((e, i, all) => all.findIndex((o) => JSON.stringify(o) === JSON.stringify(e)) === i);
  const otherError = save.error && !(save.error instanceof ApiFailure && [400, 409].includes(save.error.status));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate(body);
  };

  return (
    <>
      <title>{`${segment?.name ?? 'New segment'} · Segments · Herald`}</title>
      <nav aria-label="Breadcrumb" className="mb-2 flex gap-1 text-[13px] text-fg-2">
        <Link to="/segments" className="hover:underline">
          Segments
        </Link>
        <span aria-hidden="true">/</span>
        <Link to={`/contacts/${book.id}?tab=segments`} className="hover:underline">
          {bookTitle(book)}
        </Link>
      </nav>
      <PageHeader
        title={segment?.name ?? 'New segment'}
        facts={
          segment ? (
            <>
              <CopyableId id={segment.id} what="segment" />
              <span>
                Updated <Time value={segment.updatedAt} />
              </span>
            </>
          ) : null
        }
        actions={
          <>
            {segment ? (
              <>
                <CopyCurl path={`/api/v1/contactBooks/${book.id}/segments/${segment.id}`} />
                <Button variant="danger" onClick={() => setConfirming(true)}>
                  Delete
                </Button>
              </>
            ) : null}
            <Button type="submit" form="segment-form" variant="primary" disabled={save.isPending || !dirty}>
              {segment ? 'Save segment' : 'Create segment'}
            </Button>
          </>
        }
      />
      <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_320px]">
        <form id="segment-form" onSubmit={submit} noValidate className="min-w-0 space-y-4">
          {bookPicker}
          <div className="grid gap-4 sm:grid-cols-2">
            <Field label="Name" error={fieldError('name')}>
              {(props) => (
                <input
                  {...props}
                  className={inputClass}
                  value={name}
                  maxLength={80}
                  placeholder="Engaged this month"
                  onChange={(e) => setName(e.target.value)}
                />
              )}
            </Field>
            <Field label="Description (optional)" error={fieldError('description')}>
              {(props) => (
                <input
                  {...props}
                  className={inputClass}
                  value={description}
                  maxLength={280}
                  onChange={(e) => setDescription(e.target.value)}
                />
              )}
            </Field>
          </div>
          <SegmentBuilder
            draft={draft}
            onChange={setDraft}
            errors={builderErrors}
            variables={book.variables}
            {...lookups}
          />
          {otherError ? (
            <p role="alert" className="text-[13px] text-[var(--tone-danger)]">
              {save.error?.message}
            </p>
          ) : null}
          <details className="text-[13px]">
            <summary className="cursor-pointer text-fg-2">The definition as the API takes it</summary>
            <div className="mt-2">
              <MonoBlock text={JSON.stringify(definition, null, 2)} copyLabel="Copy definition JSON" />
            </div>
          </details>
        </form>
        <aside className="space-y-6" aria-label="Matches">
          <SegmentCount
            preview={preview}
            savedProblems={segment && !definitionChanged ? segment.problems : []}
            unsaved={segment === null || definitionChanged}
          />
          <SegmentContacts bookId={book.id} preview={preview} />
        </aside>
      </div>
      <ConfirmDialog
        open={confirming}
        onOpenChange={(open) => {
          if (!open) remove.reset();
          setConfirming(open);
        }}
        title={`Delete the segment ${segment?.name ?? ''}?`}
        description="Its contacts stay in the book. Campaigns and journeys can no longer use it."
        confirmLabel="Delete segment"
        pending={remove.isPending}
        error={remove.error?.message}
        onConfirm={() => segment && remove.mutate(segment.id)}
      />
    </>
  );
}
