// Add or edit one contact in a side sheet (?contact=new or ?contact=<id>): email, names, subscribed and
// properties, the API's field errors beside the fields; delete after a confirm. An edit is a PUT with
// the email, so the address can change too (the contract's upsert rules answer a clash with 409).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { X } from 'lucide-react';
import { Dialog } from 'radix-ui';
import { useId, useState, type FormEvent, type KeyboardEvent } from 'react';
import { toast } from 'sonner';
import { api, ApiFailure, must } from '../api/client.ts';
import { Button } from '../ui/button.tsx';
import { ConfirmDialog, Field, inputClass, splitFieldError } from '../ui/dialog.tsx';
import { ErrorState, isNotFound, Loading } from '../ui/states.tsx';
import { bookKeys, contactKeys, segmentKeys, type Book, type Contact } from './contact-queries.tsx';

interface PropertyRow {
  key: string;
  value: string;
}

function ContactForm({ book, contact, onDone }: { book: Book; contact: Contact | null; onDone: () => void }) {
  const queryClient = useQueryClient();
  const [email, setEmail] = useState(contact?.email ?? '');
  const [firstName, setFirstName] = useState(contact?.firstName ?? '');
  const [lastName, setLastName] = useState(contact?.lastName ?? '');
  const [subscribed, setSubscribed] = useState(contact?.subscribed ?? true);
  const [properties, setProperties] = useState<PropertyRow[]>(
    Object.entries(contact?.properties ?? {}).map(([key, value]) => ({ key, value })),
  );
  const [confirming, setConfirming] = useState(false);
  const listId = useId();
  const path = { contactBookId: book.id };
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: contactKeys.book(book.id) }),
      queryClient.invalidateQueries({ queryKey: bookKeys.all }),
      queryClient.invalidateQueries({ queryKey: segmentKeys.all }),
    ]);
  /** The whole contact when adding; when editing, the email and only what changed (an unchanged
   * `subscribed: false` sent again would still count as an unsubscribe for the journeys). */
  const body = () => {
    const wanted = {
      firstName: firstName.trim() || null,
      lastName: lastName.trim() || null,
      subscribed,
      properties: Object.fromEntries(properties.filter((p) => p.key.trim() !== '').map((p) => [p.key.trim(), p.value])),
    };
    const changed = Object.entries(wanted).filter(
      ([key, value]) => !contact || JSON.stringify(value) !== JSON.stringify(contact[key as keyof typeof wanted]),
    );
    return { email: email.trim(), ...Object.fromEntries(changed) };
  };
  const save = useMutation({
    mutationFn: () =>
      contact
        ? must(
            api.PUT('/api/v1/contactBooks/{contactBookId}/contacts/{contactId}', {
              params: { path: { ...path, contactId: contact.id } },
              body: body(),
            }),
          )
        : must(api.POST('/api/v1/contactBooks/{contactBookId}/contacts', { params: { path }, body: body() })),
    onSuccess: async () => {
      toast(contact ? 'Contact saved' : 'Contact added');
      await refresh();
      onDone();
    },
  });
  const remove = useMutation({
    mutationFn: (id: string) =>
      must(
        api.DELETE('/api/v1/contactBooks/{contactBookId}/contacts/{contactId}', {
          params: { path: { ...path, contactId: id } },
        }),
      ),
    onSuccess: async () => {
      toast('Contact deleted');
      await refresh();
      onDone();
    },
  });
  const failure =
    save.error instanceof ApiFailure && save.error.status === 409
      ? { field: 'email', message: save.error.message }
      : splitFieldError(save.error, ['email', 'firstName', 'lastName', 'subscribed', 'properties']);
  const fieldError = (field: string) => (failure?.field === field ? failure.message : undefined);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  const metaEnter = (event: KeyboardEvent) => {
    if (event.key === 'Enter' && (event.metaKey || event.ctrlKey)) {
      event.preventDefault();
      save.mutate();
    }
  };
  const setProperty = (index: number, change: Partial<PropertyRow>) =>
    setProperties((rows) => rows.map((row, i) => (i === index ? { ...row, ...change } : row)));

  return (
    <form onSubmit={submit} onKeyDown={metaEnter} noValidate className="mt-4 space-y-4">
      <Field label="Email" error={fieldError('email')}>
        {(props) => (
          <input
            {...props}
            type="email"
            className={inputClass}
            value={email}
            placeholder="ada@example.com"
            onChange={(e) => setEmail(e.target.value)}
          />
        )}
      </Field>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="First name" error={fieldError('firstName')}>
          {(props) => (
            <input {...props} className={inputClass} value={firstName} onChange={(e) => setFirstName(e.target.value)} />
          )}
        </Field>
        <Field label="Last name" error={fieldError('lastName')}>
          {(props) => (
            <input {...props} className={inputClass} value={lastName} onChange={(e) => setLastName(e.target.value)} />
          )}
        </Field>
      </div>
      <div>
        <label className="flex items-center gap-2 text-[13px] font-medium">
          <input
            type="checkbox"
            className="size-4 accent-[var(--accent)]"
            checked={subscribed}
            onChange={(e) => setSubscribed(e.target.checked)}
          />
          Subscribed
        </label>
        {book.doubleOptInEnabled && !contact ? (
          <p className="mt-1 text-[12px] text-fg-2">
            This book uses double opt-in: a new contact is subscribed once they confirm from the email Herald sends.
          </p>
        ) : null}
      </div>
      <fieldset className="space-y-2">
        <legend className="mb-1 text-[13px] font-medium">Properties</legend>
        <datalist id={listId}>
          {book.variables.map((v) => (
            <option key={v} value={v} />
          ))}
        </datalist>
        {properties.map((row, index) => (
          <div key={index} className="flex items-center gap-2">
            <input
              aria-label={`Name of property ${index + 1}`}
              className={`${inputClass} w-2/5`}
              list={listId}
              value={row.key}
              onChange={(e) => setProperty(index, { key: e.target.value })}
            />
            <input
              aria-label={`Value of property ${index + 1}`}
              className={inputClass}
              value={row.value}
              onChange={(e) => setProperty(index, { value: e.target.value })}
            />
            <Button
              variant="ghost"
              aria-label={`Remove property ${index + 1}`}
              onClick={() => setProperties((rows) => rows.filter((_, i) => i !== index))}
            >
              <X aria-hidden="true" size={14} />
            </Button>
          </div>
        ))}
        <Button onClick={() => setProperties((rows) => [...rows, { key: '', value: '' }])}>Add property</Button>
        {fieldError('properties') ? (
          <p className="text-[13px] text-[var(--tone-danger)]">{fieldError('properties')}</p>
        ) : null}
      </fieldset>
      {failure && !failure.field ? (
        <p role="alert" className="text-[13px] text-[var(--tone-danger)]">
          {failure.message}
        </p>
      ) : null}
      <div className="flex flex-wrap justify-end gap-2">
        {contact ? (
          <Button variant="danger" className="mr-auto" onClick={() => setConfirming(true)}>
            Delete contact
          </Button>
        ) : null}
        <Dialog.Close asChild>
          <Button>Cancel</Button>
        </Dialog.Close>
        <Button type="submit" variant="primary" disabled={save.isPending}>
          {contact ? 'Save contact' : 'Add contact'}
        </Button>
      </div>
      <ConfirmDialog
        open={confirming}
        onOpenChange={(open) => {
          if (!open) remove.reset();
          setConfirming(open);
        }}
        title={`Delete ${contact?.email ?? 'this contact'}?`}
        description="The contact leaves this book and its segments at once, and its journey runs end."
        confirmLabel="Delete contact"
        pending={remove.isPending}
        error={remove.error?.message}
        onConfirm={() => contact && remove.mutate(contact.id)}
      />
    </form>
  );
}

export function ContactSheet({ book, contactId, onClose }: { book: Book; contactId: string; onClose: () => void }) {
  const creating = contactId === 'new';
  const contact = useQuery({
    queryKey: [...contactKeys.book(book.id), 'one', contactId],
    queryFn: ({ signal }) =>
      must(
        api.GET('/api/v1/contactBooks/{contactBookId}/contacts/{contactId}', {
          params: { path: { contactBookId: book.id, contactId } },
          signal,
        }),
      ),
    enabled: !creating,
  });
  const title = creating ? 'Add a contact' : contact.data ? contact.data.email : 'Contact';
  return (
    <Dialog.Root open onOpenChange={(open) => (open ? undefined : onClose())}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-black/40" />
        <Dialog.Content
          aria-describedby={undefined}
          className="fixed inset-y-0 right-0 z-50 w-full max-w-lg overflow-y-auto border-l border-line bg-bg p-5 shadow-xl"
        >
          <div className="flex items-start justify-between gap-2">
            <Dialog.Title className="text-[16px] leading-6 font-semibold break-all">{title}</Dialog.Title>
            <Dialog.Close
              className="inline-flex size-8 shrink-0 items-center justify-center rounded-md hover:bg-muted"
              aria-label="Close"
            >
              <X aria-hidden="true" size={16} />
            </Dialog.Close>
          </div>
          {creating ? (
            <ContactForm book={book} contact={null} onDone={onClose} />
          ) : contact.isPending ? (
            <Loading label="Loading the contact" />
          ) : contact.isError ? (
            isNotFound(contact.error) ? (
              <p className="mt-4 text-[13px] text-fg-2">This contact does not exist in this book.</p>
            ) : (
              <ErrorState error={contact.error} onRetry={() => void contact.refetch()} />
            )
          ) : (
            <ContactForm key={contact.data.updatedAt} book={book} contact={contact.data} onDone={onClose} />
          )}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
