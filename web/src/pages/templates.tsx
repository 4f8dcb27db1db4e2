// Templates: Name, Type, Subject, Updated, most recently changed first, paged 50 at a time (the page
// in the URL); an empty state that teaches; "New template"; delete confirmed from the row.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { api, must } from '../api/client.ts';
import { useSignedIn } from '../api/session.ts';
import { useUrlParam } from '../lib/use-url-param.ts';
import { Button } from '../ui/button.tsx';
import { curlFor } from '../ui/copy-curl.tsx';
import { MonoBlock } from '../ui/mono-block.tsx';
import { PageHeader } from '../ui/page-header.tsx';
import { Pager } from '../ui/pager.tsx';
import { EmptyState, ErrorState } from '../ui/states.tsx';
import { Tag } from '../ui/status-badge.tsx';
import { SkeletonRows, Table, Td, Th } from '../ui/table.tsx';
import { Time } from '../ui/time.tsx';
import { CreateTemplate, typeLabel } from './template-create.tsx';
import { DeleteTemplateDialog } from './template-delete.tsx';

const LIMIT = 50;

export default function Templates() {
  const session = useSignedIn();
  const [pageParam, setPageParam] = useUrlParam('page');
  const page = Math.max(1, Number(pageParam) || 1);
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<{ id: string; name: string } | null>(null);
  const templates = useQuery({
    queryKey: ['templates', 'list', page],
    queryFn: ({ signal }) => must(api.GET('/api/v1/templates', { params: { query: { page, limit: LIMIT } }, signal })),
    placeholderData: keepPreviousData,
  });
  const add = (
    <Button variant="primary" onClick={() => setCreating(true)}>
      New template
    </Button>
  );
  const rows = templates.data ?? [];
  return (
    <>
      <title>Templates · Herald</title>
      <PageHeader title="Templates" actions={rows.length || page > 1 ? add : null} />
      {templates.isError ? (
        <ErrorState error={templates.error} onRetry={() => void templates.refetch()} />
      ) : templates.isSuccess && rows.length === 0 && page === 1 ? (
        <EmptyState title="No templates yet" action={add}>
          <p>
            A template keeps a subject and body with {'{{variables}}'}; send it by passing its id as templateId with the
            values.
          </p>
          <div className="mt-3 text-left">
            <MonoBlock
              copyLabel="Copy curl"
              text={`${curlFor(session.instance.publicUrl, '/api/v1/templates', 'POST')} \\\n  -H "Content-Type: application/json" \\\n  -d '{"name":"Welcome","subject":"Welcome, {{firstName}}","html":"<p>Hello {{firstName}}</p>"}'`}
            />
          </div>
        </EmptyState>
      ) : (
        <>
          <Table label="Templates">
            <colgroup>
              <col className="w-[40%] sm:w-[30%]" />
              <col className="hidden w-[120px] sm:table-column" />
              <col />
              <col className="hidden w-[130px] md:table-column" />
              <col className="w-[52px]" />
            </colgroup>
            <thead>
              <tr>
                <Th>Name</Th>
                <Th className="hidden sm:table-cell">Type</Th>
                <Th>Subject</Th>
                <Th className="hidden md:table-cell">Updated</Th>
                <Th>
                  <span className="sr-only">Actions</span>
                </Th>
              </tr>
            </thead>
            <tbody>
              {templates.isPending ? (
                <SkeletonRows rows={3} columns={5} />
              ) : (
                rows.map((t) => (
                  <tr key={t.id} className="hover:bg-surface">
                    <Td>
                      <Link to={`/templates/${t.id}`} className="font-medium hover:underline">
                        {t.name}
                      </Link>
                    </Td>
                    <Td className="hidden sm:table-cell">
                      <Tag>{typeLabel(t.type)}</Tag>
                    </Td>
                    <Td className="text-fg-2" title={t.subject}>
                      {t.subject}
                    </Td>
                    <Td className="hidden text-fg-2 md:table-cell">
                      <Time value={t.updatedAt} />
                    </Td>
                    <Td className="text-right">
                      <button
                        type="button"
                        aria-label={`Delete template ${t.name}`}
                        title={`Delete template ${t.name}`}
                        onClick={() => setDeleting({ id: t.id, name: t.name })}
                        className="inline-flex size-7 items-center justify-center rounded-md text-fg-2 hover:bg-muted hover:text-fg"
                      >
                        <Trash2 aria-hidden="true" size={14} />
                      </button>
                    </Td>
                  </tr>
                ))
              )}
            </tbody>
          </Table>
          <Pager
            cursor={page > 1 ? String(page) : null}
            nextCursor={rows.length === LIMIT ? String(page + 1) : null}
            onCursor={(next) => setPageParam(next)}
          />
        </>
      )}
      <CreateTemplate open={creating} onOpenChange={setCreating} />
      <DeleteTemplateDialog template={deleting} onClose={() => setDeleting(null)} />
    </>
  );
}
