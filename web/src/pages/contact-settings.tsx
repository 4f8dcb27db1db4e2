// A book's settings: name, emoji, variables, and double opt-in (on/off, From, subject, the message).
// Only the fields that changed are sent (the API checks doubleOptInFrom's domain whenever it is sent).
// The message is written as plain paragraphs and sent as the editor document the API takes; a
// document plain text cannot hold (headings, images…) is edited as JSON instead.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { api, must } from '../api/client.ts';
import { Button } from '../ui/button.tsx';
import { Field, inputClass, splitFieldError } from '../ui/dialog.tsx';
import { bookKeys, segmentKeys, type Book, type BookInput } from './contact-queries.tsx';

const fields = [
  'name',
  'emoji',
  'variables',
  'doubleOptInEnabled',
  'doubleOptInFrom',
  'doubleOptInSubject',
  'doubleOptInContent',
];

/** The message of a document made only of plain paragraphs, or null when it holds more than that. */
export function textOfDocument(json: string | null): string | null {
  if (json === null || json.trim() === '') return '';
  try {
    const doc = JSON.parse(json) as { blocks?: { type?: string; content?: unknown[]; [k: string]: unknown }[] };
    const blocks = doc.blocks ?? [];
    const plain = blocks.every(
      (b) =>
        b.type === 'paragraph' &&
        Object.keys(b).every((k) => k === 'type' || k === 'content') &&
        (b.content ?? []).every((run) => typeof run === 'string'),
    );
    return plain ? blocks.map((b) => (b.content as string[]).join('')).join('\n\n') : null;
  } catch {
    return null;
  }
}

/** Paragraphs (blank-line separated) as an editor document; empty text is null (the default message). */
export function documentOfText(text: string): string | null {
  const paragraphs = text
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter((p) => p !== '');
  if (paragraphs.length === 0) return null;
  return JSON.stringify({ version: 1, blocks: paragraphs.map((p) => ({ type: 'paragraph', content: [p] })) });
}

/** Documents compared by content, not by spacing or key order (the API stores them re-serialised). */
function sameValue(key: string, a: unknown, b: unknown): boolean {
  if (key !== 'doubleOptInContent' || typeof a !== 'string' || typeof b !== 'string')
    return JSON.stringify(a) === JSON.stringify(b);
  const canonical = (json: string): string => {
    const sort = (v: unknown): unknown =>
      Array.isArray(v)
        ? v.map(sort)
        : v && typeof v === 'object'
          ? Object.fromEntries(
              Object.entries(v)
                .sort(([x], [y]) => x.localeCompare(y))
                .map(([k, w]) => [k, sort(w)]),
            )
          : v;
    try {
      return JSON.stringify(sort(JSON.parse(json)));
    } catch {
      return json;
    }
  };
  return canonical(a) === canonical(b);
}

const listOf = (text: string) => [
  ...new Set(
    text
      .split(',')
      .map((v) => v.trim())
      .filter((v) => v !== ''),
  ),
];

export function BookSettings({ book }: { book: Book }) {
  const queryClient = useQueryClient();
  const storedText = textOfDocument(book.doubleOptInContent);
  const [name, setName] = useState(book.name);
  const [emoji, setEmoji] = useState(book.emoji);
  const [variables, setVariables] = useState(book.variables.join(', '));
  const [enabled, setEnabled] = useState(book.doubleOptInEnabled);
  const [from, setFrom] = useState(book.doubleOptInFrom ?? '');
  const [subject, setSubject] = useState(book.doubleOptInSubject ?? '');
  const [mode, setMode] = useState<'text' | 'json'>(storedText === null ? 'json' : 'text');
  const [message, setMessage] = useState(storedText ?? book.doubleOptInContent ?? '');

  const content = mode === 'text' ? documentOfText(message) : message.trim() || null;
  const wanted: BookInput = {
    name: name.trim(),
    emoji: emoji.trim(),
    variables: listOf(variables),
    doubleOptInEnabled: enabled,
    doubleOptInFrom: from.trim() || null,
    doubleOptInSubject: subject.trim() || null,
    doubleOptInContent: content,
  };
  const changes = Object.fromEntries(
    Object.entries(wanted).filter(([key, value]) => !sameValue(key, value, book[key as keyof Book] ?? null)),
  ) as BookInput;
  const dirty = Object.keys(changes).length > 0;

  const save = useMutation({
    mutationFn: () =>
      must(
        api.PATCH('/api/v1/contactBooks/{contactBookId}', {
          params: { path: { contactBookId: book.id } },
          body: changes,
        }),
      ),
    onSuccess: async (saved) => {
      queryClient.setQueryData(bookKeys.one(book.id), saved);
      toast('Settings saved');
      await queryClient.invalidateQueries({ queryKey: bookKeys.all });
      await queryClient.invalidateQueries({ queryKey: segmentKeys.all });
    },
  });
  const failure = splitFieldError(save.error, fields);
  const error = (field: string) => (failure?.field === field ? failure.message : undefined);
  const switchMode = (next: 'text' | 'json') => {
    if (next === mode) return;
    if (next === 'json') {
      const doc = documentOfText(message);
      setMessage(doc ? JSON.stringify(JSON.parse(doc), null, 2) : '');
    } else {
      setMessage(textOfDocument(message) ?? '');
    }
    setMode(next);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (dirty) save.mutate();
  };
  const jsonIsPlain = mode === 'json' && textOfDocument(message) !== null;

  return (
    <form onSubmit={submit} noValidate className="max-w-2xl space-y-6">
      <fieldset className="space-y-4">
        <legend className="mb-2 text-[16px] leading-6 font-semibold">Book</legend>
        <div className="grid gap-4 sm:grid-cols-[1fr_120px]">
          <Field label="Name" error={error('name')}>
            {(props) => (
              <input {...props} className={inputClass} value={name} onChange={(e) => setName(e.target.value)} />
            )}
          </Field>
          <Field label="Emoji" error={error('emoji')}>
            {(props) => (
              <input {...props} className={inputClass} value={emoji} onChange={(e) => setEmoji(e.target.value)} />
            )}
          </Field>
        </div>
        <Field
          label="Variables"
          hint="The properties templates may use and segments may filter on, separated by commas."
          error={error('variables')}
        >
          {(props) => (
            <input
              {...props}
              className={inputClass}
              value={variables}
              placeholder="plan, city"
              onChange={(e) => setVariables(e.target.value)}
            />
          )}
        </Field>
      </fieldset>

      <fieldset className="space-y-4">
        <legend className="mb-2 text-[16px] leading-6 font-semibold">Double opt-in</legend>
        <label className="flex items-start gap-2 text-[13px]">
          <input
            type="checkbox"
            className="mt-0.5 size-4 accent-[var(--accent)]"
            checked={enabled}
            onChange={(e) => setEnabled(e.target.checked)}
          />
          <span>
            <span className="font-medium">Ask new contacts to confirm their address</span>
            <span className="block text-fg-2">
              New contacts start unsubscribed and are emailed a confirmation link; existing contacts keep their state.
            </span>
          </span>
        </label>
        <Field
          label="From"
          hint="An address on a verified domain of this team, or Name <address>."
          error={error('doubleOptInFrom')}
        >
          {(props) => (
            <input
              {...props}
              className={inputClass}
              value={from}
              placeholder="Acme <hello@mail.example.com>"
              onChange={(e) => setFrom(e.target.value)}
            />
          )}
        </Field>
        {enabled && from.trim() === '' ? (
          <p role="note" className="rounded-md bg-[var(--tone-warning-bg)] p-2 text-[13px] text-[var(--tone-warning)]">
            Without a From address no confirmation email can be sent, and new contacts stay unconfirmed.
          </p>
        ) : null}
        <Field label="Subject" hint="Empty: “Please confirm your subscription”." error={error('doubleOptInSubject')}>
          {(props) => (
            <input {...props} className={inputClass} value={subject} onChange={(e) => setSubject(e.target.value)} />
          )}
        </Field>
        <div role="radiogroup" aria-label="Write the message as" className="flex gap-4 text-[13px]">
          {(['text', 'json'] as const).map((m) => (
            <label key={m} className="flex items-center gap-1.5">
              <input
                type="radio"
                name="message-mode"
                className="accent-[var(--accent)]"
                checked={mode === m}
                disabled={m === 'text' && mode === 'json' && !jsonIsPlain && message.trim() !== ''}
                onChange={() => switchMode(m)}
              />
              {m === 'text' ? 'Plain paragraphs' : 'Editor document (JSON)'}
            </label>
          ))}
        </div>
        <Field
          label="Message"
          hint={
            mode === 'text'
              ? 'Paragraphs separated by a blank line; {{firstName}}, {{email}} and the book’s variables are filled. A Confirm button to {{confirmUrl}} is added. Empty: Herald’s default message.'
              : 'An editor document (docs/templates.md); a Confirm button to {{confirmUrl}} is added when none links there.'
          }
          error={error('doubleOptInContent')}
        >
          {(props) => (
            <textarea
              {...props}
              rows={mode === 'text' ? 6 : 12}
              className={`${inputClass} h-auto py-1.5 ${mode === 'json' ? 'font-mono text-[12px]' : ''}`}
              value={message}
              onChange={(e) => setMessage(e.target.value)}
            />
          )}
        </Field>
      </fieldset>

      {failure && !failure.field ? (
        <p role="alert" className="text-[13px] text-[var(--tone-danger)]">
          {failure.message}
        </p>
      ) : null}
      <div className="flex items-center gap-3">
        <Button type="submit" variant="primary" disabled={!dirty || save.isPending}>
          Save settings
        </Button>
        {!dirty ? <span className="text-[13px] text-fg-2">No unsaved changes</span> : null}
      </div>
    </form>
  );
}
