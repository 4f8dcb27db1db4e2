// Contacts: the team's contact books (Name, Contacts, Double opt-in, Created); create a book; delete
// one after typing its name (the API refuses with 400 while a live campaign or journey uses it, and
// that message is shown in the dialog).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { api, must } from '../api/client.ts';
import { useSignedIn } from '../api/session.ts';
import { Button } from '../ui/button.tsx';
import { curlFor } from '../ui/copy-curl.tsx';
import { Field, FormDialog, inputClass, splitFieldError } from '../ui/dialog.tsx';
import { formatCount } from '../ui/format.ts';
import { MonoBlock } from '../ui/mono-block.tsx';
import { PageHeader } from '../ui/page-header.tsx';
import { EmptyState, ErrorState } from '../ui/states.tsx';
import { SkeletonRows, Table, Td, Th } from '../ui/table.tsx';
import { Time } from '../ui/time.tsx';
import { DeleteBookDialog } from './contact-book-delete.tsx';
import { bookKeys, bookTitle, useBooks, type Book } from './contact-queries.tsx';

function CreateBook({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const [name, setName] = useState('');
  const [emoji, setEmoji] = useState('');
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const create = useMutation({
    mutationFn: () =>
      must(
        api.POST('/api/v1/contactBooks', {
          body: { name: name.trim(), ...(emoji.trim() ? { emoji: emoji.trim() } : {}) },
        }),
      ),
    onSuccess: async (book) => {
      await queryClient.invalidateQueries({ queryKey: bookKeys.all });
      onOpenChange(false);
      setName('');
      setEmoji('');
      navigate(`/contacts/${book.id}`);
    },
  });
  const failure = splitFieldError(create.error, ['name', 'emoji']);
  return (
    <FormDialog
      open={open}
      onOpenChange={(next) => {
        if (!next) create.reset();
        onOpenChange(next);
      }}
      title="Create a contact book"
      description="A book holds contacts; segments, campaigns and journeys are built on one book."
      submitLabel="Create book"
      pending={create.isPending}
      error={failure && !failure.field ? failure.message : null}
      onSubmit={() => create.mutate()}
    >
      <Field label="Name" error={failure?.field === 'name' ? failure.message : undefined}>
        {(props) => (
          <input
            {...props}
            className={inputClass}
            value={name}
            placeholder="Newsletter"
            onChange={(e) => setName(e.target.value)}
          />
        )}
      </Field>
      <Field
        label="Emoji (optional)"
        hint="Shown beside the name; 📙 when left empty."
        error={failure?.field === 'emoji' ? failure.message : undefined}
      >
        {(props) => (
          <input {...props} className={`${inputClass} w-24`} value={emoji} onChange={(e) => setEmoji(e.target.value)} />
        )}
      </Field>
    </FormDialog>
  );
}

export default function Contacts() {
  const session = useSignedIn();
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<Book | null>(null);
  const books = useBooks();
  const add = (
    <Button variant="primary" onClick={() => setCreating(true)}>
      Create book
    </Button>
  );
  return (
    <>
      <title>Contacts · Herald</title>
      <PageHeader title="Contacts" actions={books.data?.length ? add : null} />
      {books.isError ? (
        <ErrorState error={books.error} onRetry={() => void books.refetch()} />
      ) : books.data?.length === 0 ? (
        <EmptyState title="No contact books yet" action={add}>
          <p>Create a book, then add contacts one by one, import a CSV file, or send them through the API.</p>
          <div className="mt-3 text-left">
            <MonoBlock
              copyLabel="Copy curl"
              text={`${curlFor(session.instance.publicUrl, '/api/v1/contactBooks', 'POST')} \\\n  -H "Content-Type: application/json" \\\n  -d '{"name":"Newsletter"}'`}
            />
          </div>
        </EmptyState>
      ) : (
        <Table label="Contact books">
          <colgroup>
            <col />
            <col className="w-[110px]" />
            <col className="hidden w-[130px] sm:table-column" />
            <col className="hidden w-[130px] md:table-column" />
            <col className="w-[84px]" />
          </colgroup>
          <thead>
            <tr>
              <Th>Name</Th>
              <Th className="text-right">Contacts</Th>
              <Th className="hidden sm:table-cell">Double opt-in</Th>
              <Th className="hidden md:table-cell">Created</Th>
              <Th>
                <span className="sr-only">Actions</span>
              </Th>
            </tr>
          </thead>
          <tbody>
            {books.isPending ? (
              <SkeletonRows rows={3} columns={5} />
            ) : (
              books.data.map((book) => (
                <tr key={book.id} className="hover:bg-surface">
                  <Td>
                    <Link to={`/contacts/${book.id}`} className="hover:underline">
                      {bookTitle(book)}
                    </Link>
                  </Td>
                  <Td className="text-right tabular">{formatCount(book._count.contacts)}</Td>
                  <Td className="hidden text-fg-2 sm:table-cell">{book.doubleOptInEnabled ? 'On' : 'Off'}</Td>
                  <Td className="hidden text-fg-2 md:table-cell">
                    <Time value={book.createdAt} />
                  </Td>
                  <Td className="text-right">
                    <Button variant="ghost" aria-label={`Delete ${book.name}`} onClick={() => setDeleting(book)}>
                      Delete
                    </Button>
                  </Td>
                </tr>
              ))
            )}
          </tbody>
        </Table>
      )}
      <CreateBook open={creating} onOpenChange={setCreating} />
      <DeleteBookDialog book={deleting} onOpenChange={(open) => (open ? undefined : setDeleting(null))} />
    </>
  );
}
