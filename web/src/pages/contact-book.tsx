// One contact book: its contacts (search, paging, add/edit in a side sheet, bulk delete, CSV import),
// its segments, its settings (double opt-in, variables) and the API's JSON, each a tab in the URL.
import { lazy, Suspense, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { useUrlParam } from '../lib/use-url-param.ts';
import { Button } from '../ui/button.tsx';
import { CopyableId } from '../ui/copy-button.tsx';
import { CopyCurl } from '../ui/copy-curl.tsx';
import { formatCount } from '../ui/format.ts';
import { MonoBlock } from '../ui/mono-block.tsx';
import { PageHeader } from '../ui/page-header.tsx';
import { ErrorState, isNotFound, Loading } from '../ui/states.tsx';
import { UrlTabs } from '../ui/tabs.tsx';
import { Time } from '../ui/time.tsx';
import { DeleteBookDialog } from './contact-book-delete.tsx';
import { bookTitle, useBook } from './contact-queries.tsx';
import { BookSegments } from './contact-segments.tsx';
import { BookSettings } from './contact-settings.tsx';
import { ContactSheet } from './contact-sheet.tsx';
import { ContactTable } from './contact-table.tsx';
import { NotFound } from './not-found.tsx';

const back = { to: '/contacts', label: 'Back to Contacts' };
// The CSV import (parser, mapping, batches) loads on first use, or when its button is pointed at.
const loadImport = () => import('./contact-import.tsx');
const ContactImport = lazy(() => loadImport().then((m) => ({ default: m.ContactImport })));
const prefetchImport = () => void loadImport().catch(() => undefined);

export default function ContactBook() {
  const { bookId = '' } = useParams();
  const navigate = useNavigate();
  const book = useBook(bookId);
  const [contactId, setContactId] = useUrlParam('contact');
  const [importing, setImporting] = useState(false);
  const [deleting, setDeleting] = useState(false);

  if (book.isPending) return <Loading label="Loading the contact book" />;
  if (book.isError) {
    if (isNotFound(book.error)) return <NotFound what="contact book" back={back} />;
    return <ErrorState error={book.error} onRetry={() => void book.refetch()} />;
  }
  const b = book.data;
  const count = b._count.contacts;
  return (
    <>
      <title>{`${b.name} · Contacts · Herald`}</title>
      <nav aria-label="Breadcrumb" className="mb-2 text-[13px] text-fg-2">
        <Link to="/contacts" className="hover:underline">
          Contacts
        </Link>
      </nav>
      <PageHeader
        title={bookTitle(b)}
        facts={
          <>
            <span className="tabular">
              {formatCount(count)} {count === 1 ? 'contact' : 'contacts'}
            </span>
            <span>Double opt-in {b.doubleOptInEnabled ? 'on' : 'off'}</span>
            <CopyableId id={b.id} what="contact book" />
            <span>
              Created <Time value={b.createdAt} />
            </span>
          </>
        }
        actions={
          <>
            <CopyCurl path={`/api/v1/contactBooks/${b.id}/contacts`} />
            <Button variant="danger" onClick={() => setDeleting(true)}>
              Delete book
            </Button>
            <Button onClick={() => setImporting(true)} onPointerEnter={prefetchImport} onFocus={prefetchImport}>
              Import CSV
            </Button>
            <Button variant="primary" onClick={() => setContactId('new')}>
              Add contact
            </Button>
          </>
        }
      />
      <UrlTabs
        label="Contact book"
        tabs={[
          {
            value: 'contacts',
            label: 'Contacts',
            content: <ContactTable book={b} onImport={() => setImporting(true)} />,
          },
          { value: 'segments', label: 'Segments', content: <BookSegments book={b} /> },
          { value: 'settings', label: 'Settings', content: <BookSettings book={b} /> },
          {
            value: 'json',
            label: 'JSON',
            content: <MonoBlock text={JSON.stringify(b, null, 2)} copyLabel="Copy JSON" />,
          },
        ]}
      />
      {contactId ? <ContactSheet book={b} contactId={contactId} onClose={() => setContactId(null)} /> : null}
      {importing ? (
        <Suspense fallback={null}>
          <ContactImport book={b} open onOpenChange={setImporting} />
        </Suspense>
      ) : null}
      <DeleteBookDialog
        book={deleting ? b : null}
        onOpenChange={setDeleting}
        onDeleted={() => navigate('/contacts', { replace: true })}
      />
    </>
  );
}
