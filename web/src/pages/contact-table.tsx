// A book's contacts: Email, Name, Subscribed, two properties, Added; 50 a page (page and search in the
// URL); rows picked with checkboxes and deleted together through the bulk endpoint after a confirm.
// The API's only search is by exact address (`emails`, several comma-separated), so that is the search.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { api, must } from '../api/client.ts';
import { useUrlParam } from '../lib/use-url-param.ts';
import { Button, buttonClass } from '../ui/button.tsx';
import { ConfirmDialog, inputClass } from '../ui/dialog.tsx';
import { formatCount } from '../ui/format.ts';
import { EmptyState, ErrorState } from '../ui/states.tsx';
import { Tag } from '../ui/status-badge.tsx';
import { SkeletonRows, Table, Td, Th } from '../ui/table.tsx';
import { Time } from '../ui/time.tsx';
import { bookKeys, contactKeys, segmentKeys, type Book, type Contact } from './contact-queries.tsx';

const PAGE_SIZE = 50;
const box = 'size-4 align-middle accent-[var(--accent)]';

/** The book's first two variables, else the first two property names on this page. */
function propertyColumns(book: Book, rows: readonly Contact[]): string[] {
  if (book.variables.length > 0) return book.variables.slice(0, 2);
  const seen: string[] = [];
  for (const row of rows) for (const key of Object.keys(row.properties)) if (!seen.includes(key)) seen.push(key);
  return seen.slice(0, 2);
}

const fullName = (c: Contact) => [c.firstName, c.lastName].filter(Boolean).join(' ');

export function ContactTable({ book, onImport }: { book: Book; onImport: () => void }) {
  const queryClient = useQueryClient();
  const [params] = useSearchParams();
  const [emails, setEmails] = useUrlParam('email');
  const [pageParam, setPage] = useUrlParam('page');
  const page = Math.max(1, Number.parseInt(pageParam ?? '1', 10) || 1);
  const [typed, setTyped] = useState(emails ?? '');
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [confirming, setConfirming] = useState(false);
  const searchId = useId();
  const hintId = useId();

  // The search reaches the URL 250 ms after typing stops; a URL changed under the field (back, a
  // pasted link) sets the field instead of being overwritten by it.
  const inUrl = useRef(emails ?? '');
  const writeUrl = useRef(setEmails);
  writeUrl.current = setEmails; // a new function each render: the timer below must not restart for it
  useEffect(() => {
    if ((emails ?? '') === inUrl.current) return;
    inUrl.current = emails ?? '';
    setTyped(emails ?? '');
  }, [emails]);
  useEffect(() => {
    const timer = setTimeout(() => {
      const next = typed.trim();
      if (next === inUrl.current) return;
      inUrl.current = next;
      writeUrl.current(next || null, ['page']);
    }, 250);
    return () => clearTimeout(timer);
  }, [typed]);
  // A selection belongs to the rows it was made on.
  useEffect(() => setSelected(new Set()), [emails, page, book.id]);

  const list = useQuery({
    queryKey: [...contactKeys.book(book.id), emails ?? '', page],
    queryFn: ({ signal }) =>
      must(
        api.GET('/api/v1/contactBooks/{contactBookId}/contacts', {
          params: {
            path: { contactBookId: book.id },
            query: { emails: emails ?? undefined, page, limit: PAGE_SIZE },
          },
          signal,
        }),
      ),
    placeholderData: keepPreviousData,
  });
  const rows = list.data ?? [];
  const total = emails ? null : book._count.contacts;
  const hasNext = total === null ? rows.length === PAGE_SIZE : page * PAGE_SIZE < total;

  const bulkDelete = useMutation({
    mutationFn: (contactIds: string[]) =>
      must(
        api.DELETE('/api/v1/contactBooks/{contactBookId}/contacts/bulk', {
          params: { path: { contactBookId: book.id } },
          body: { contactIds },
        }),
      ),
    onSuccess: async (answer) => {
      setConfirming(false);
      setSelected(new Set());
      toast(`${formatCount(answer.count)} ${answer.count === 1 ? 'contact' : 'contacts'} deleted`);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: contactKeys.book(book.id) }),
        queryClient.invalidateQueries({ queryKey: bookKeys.all }),
        queryClient.invalidateQueries({ queryKey: segmentKeys.all }),
      ]);
    },
  });

  const columns = propertyColumns(book, rows);
  const allOnPage = rows.length > 0 && rows.every((c) => selected.has(c.id));
  const toggle = (id: string, on: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  const linkTo = (contactId: string) => {
    const next = new URLSearchParams(params);
    next.set('contact', contactId);
    return { search: `?${next.toString()}` };
  };
  const first = (page - 1) * PAGE_SIZE + 1;

  return (
    <div className="space-y-3">
      <div role="search" aria-label="Find contacts" className="flex flex-wrap items-start gap-2">
        <div className="w-full sm:w-80">
          <label htmlFor={searchId} className="sr-only">
            Find by email
          </label>
          <input
            id={searchId}
            type="search"
            className={inputClass}
            placeholder="Find by email"
            aria-describedby={hintId}
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
          />
          <p id={hintId} className="mt-1 text-[12px] text-fg-2">
            Whole addresses; separate several with commas.
          </p>
        </div>
        {selected.size > 0 ? (
          <div className="flex items-center gap-2 text-[13px]">
            <span className="tabular">{formatCount(selected.size)} selected</span>
            <Button variant="danger" onClick={() => setConfirming(true)}>
              Delete {formatCount(selected.size)} {selected.size === 1 ? 'contact' : 'contacts'}
            </Button>
          </div>
        ) : null}
      </div>

      {list.isError ? (
        <ErrorState error={list.error} onRetry={() => void list.refetch()} />
      ) : !list.isPending && rows.length === 0 && page === 1 ? (
        emails ? (
          <EmptyState title={`No contact with the address “${emails}”`}>
            <Button variant="ghost" onClick={() => setTyped('')}>
              Clear the search
            </Button>
          </EmptyState>
        ) : (
          <EmptyState
            title="No contacts in this book yet"
            action={
              <div className="flex gap-2">
                <Button onClick={onImport}>Import CSV</Button>
                <Link to={linkTo('new')} className={buttonClass('primary')}>
                  Add contact
                </Link>
              </div>
            }
          >
            Add people one at a time, import a CSV file, or send them with POST /v1/contactBooks/{book.id}/contacts.
          </EmptyState>
        )
      ) : (
        <Table label="Contacts" className={list.isPlaceholderData ? 'opacity-70' : undefined}>
          <colgroup>
            <col className="w-[44px]" />
            <col />
            <col className="hidden w-[20%] md:table-column" />
            <col className="w-[120px]" />
            {columns.map((key) => (
              <col key={key} className="hidden w-[14%] lg:table-column" />
            ))}
            <col className="hidden w-[120px] sm:table-column" />
          </colgroup>
          <thead>
            <tr>
              <Th>
                <input
                  type="checkbox"
                  className={box}
                  aria-label="Select all contacts on this page"
                  checked={allOnPage}
                  disabled={rows.length === 0}
                  onChange={(e) => setSelected(e.target.checked ? new Set(rows.map((c) => c.id)) : new Set())}
                />
              </Th>
              <Th>Email</Th>
              <Th className="hidden md:table-cell">Name</Th>
              <Th>Subscribed</Th>
              {columns.map((key) => (
                <Th key={key} className="hidden lg:table-cell">
                  {key}
                </Th>
              ))}
              <Th className="hidden sm:table-cell">Added</Th>
            </tr>
          </thead>
          <tbody>
            {list.isPending ? (
              <SkeletonRows rows={8} columns={5 + columns.length} />
            ) : (
              rows.map((c) => (
                <tr key={c.id} className="hover:bg-surface">
                  <Td>
                    <input
                      type="checkbox"
                      className={box}
                      aria-label={`Select ${c.email}`}
                      checked={selected.has(c.id)}
                      onChange={(e) => toggle(c.id, e.target.checked)}
                    />
                  </Td>
                  <Td>
                    <Link to={linkTo(c.id)} className="hover:underline">
                      {c.email}
                    </Link>
                  </Td>
                  <Td className="hidden md:table-cell">{fullName(c) || <span className="text-fg-2">—</span>}</Td>
                  <Td>{c.subscribed ? <Tag tone="success">Subscribed</Tag> : <Tag>Unsubscribed</Tag>}</Td>
                  {columns.map((key) => (
                    <Td key={key} className="hidden text-fg-2 lg:table-cell">
                      {c.properties[key] ?? '—'}
                    </Td>
                  ))}
                  <Td className="hidden text-fg-2 sm:table-cell">
                    <Time value={c.createdAt} />
                  </Td>
                </tr>
              ))
            )}
          </tbody>
        </Table>
      )}

      {rows.length > 0 || page > 1 ? (
        <nav aria-label="Pages" className="flex flex-wrap items-center justify-end gap-2 text-[13px]">
          {rows.length > 0 ? (
            <span className="mr-auto text-fg-2 tabular">
              {formatCount(first)}–{formatCount(first + rows.length - 1)}
              {total !== null ? ` of ${formatCount(total)}` : ''}
            </span>
          ) : null}
          <Button disabled={page <= 1} onClick={() => setPage(page - 1 > 1 ? String(page - 1) : null)}>
            Previous
          </Button>
          <Button disabled={!hasNext} onClick={() => setPage(String(page + 1))}>
            Next
          </Button>
        </nav>
      ) : null}

      <ConfirmDialog
        open={confirming}
        onOpenChange={(open) => {
          if (!open) bulkDelete.reset();
          setConfirming(open);
        }}
        title={`Delete ${formatCount(selected.size)} ${selected.size === 1 ? 'contact' : 'contacts'}?`}
        description="They leave this book and its segments at once, and their journey runs end. This cannot be undone."
        confirmLabel={`Delete ${formatCount(selected.size)} ${selected.size === 1 ? 'contact' : 'contacts'}`}
        pending={bulkDelete.isPending}
        error={bulkDelete.error?.message}
        onConfirm={() => bulkDelete.mutate([...selected])}
      />
    </div>
  );
}
