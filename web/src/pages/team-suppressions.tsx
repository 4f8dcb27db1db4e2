// Suppressions: Email, Reason, Added; filter by email (in the URL, 250 ms debounce); add an address;
// remove one with a confirm naming it.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { api, ApiFailure, must } from '../api/client.ts';
import { useUrlParam } from '../lib/use-url-param.ts';
import { Button } from '../ui/button.tsx';
import { ConfirmDialog, inputClass, splitFieldError } from '../ui/dialog.tsx';
import { Pager } from '../ui/pager.tsx';
import { EmptyState, ErrorState } from '../ui/states.tsx';
import { SkeletonRows, Table, Td, Th } from '../ui/table.tsx';
import { Time } from '../ui/time.tsx';

type Reason = 'MANUAL' | 'HARD_BOUNCE' | 'COMPLAINT';
const reasons: Record<string, string> = { MANUAL: 'Added by hand', HARD_BOUNCE: 'Hard bounce', COMPLAINT: 'Complaint' };

function AddSuppression() {
  const queryClient = useQueryClient();
  const [email, setEmail] = useState('');
  const [reason, setReason] = useState<Reason>('MANUAL');
  const emailId = useId();
  const reasonId = useId();
  const errorId = useId();
  const add = useMutation({
    mutationFn: () => must(api.POST('/api/v1/suppressions', { body: { email: email.trim(), reason } })),
    onSuccess: async () => {
      setEmail('');
      await queryClient.invalidateQueries({ queryKey: ['suppressions'] });
      await queryClient.invalidateQueries({ queryKey: ['audit-log'] });
    },
  });
  const failure = splitFieldError(add.error, ['email', 'reason']);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    add.mutate();
  };
  return (
    <form onSubmit={submit} noValidate className="flex flex-wrap items-end gap-2">
      <div className="w-full sm:w-64">
        <label htmlFor={emailId} className="mb-1 block text-[13px] font-medium">
          Address to suppress
        </label>
        <input
          id={emailId}
          type="email"
          className={inputClass}
          value={email}
          placeholder="someone@example.com"
          onChange={(e) => setEmail(e.target.value)}
          aria-invalid={failure ? true : undefined}
          aria-describedby={failure ? errorId : undefined}
        />
      </div>
      <div>
        <label htmlFor={reasonId} className="mb-1 block text-[13px] font-medium">
          Reason
        </label>
        <select
          id={reasonId}
          className={inputClass}
          value={reason}
          onChange={(e) => setReason(e.target.value as Reason)}
        >
          {Object.entries(reasons).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </div>
      <Button type="submit" variant="primary" disabled={add.isPending || email.trim() === ''}>
        Add suppression
      </Button>
      {failure ? (
        <p id={errorId} role="alert" className="w-full text-[13px] text-[var(--tone-danger)]">
          {failure.message}
        </p>
      ) : null}
    </form>
  );
}

export function TeamSuppressions() {
  const queryClient = useQueryClient();
  const [filter, setFilter] = useUrlParam('email');
  const [cursor, setCursor] = useUrlParam('cursor');
  const [typed, setTyped] = useState(filter ?? '');
  const [removing, setRemoving] = useState<string | null>(null);
  const filterId = useId();
  useEffect(() => {
    const timer = setTimeout(() => {
      if (typed.trim() !== (filter ?? '')) setFilter(typed.trim() || null, ['cursor']);
    }, 250);
    return () => clearTimeout(timer);
  }, [typed, filter, setFilter]);
  const list = useQuery({
    queryKey: ['suppressions', filter, cursor],
    queryFn: ({ signal }) =>
      must(
        api.GET('/api/v1/suppressions', {
          params: { query: { email: filter ?? undefined, cursor: cursor ?? undefined, limit: 50 } },
          signal,
        }),
      ),
    placeholderData: (previous) => previous,
  });
  const remove = useMutation({
    mutationFn: (email: string) => must(api.DELETE('/api/v1/suppressions/{email}', { params: { path: { email } } })),
    onSuccess: async () => {
      setRemoving(null);
      await queryClient.invalidateQueries({ queryKey: ['suppressions'] });
      await queryClient.invalidateQueries({ queryKey: ['audit-log'] });
    },
  });
  if (list.error instanceof ApiFailure && list.error.status === 403) return <ErrorState error={list.error} />;
  return (
    <div className="space-y-4">
      <AddSuppression />
      <div>
        <label htmlFor={filterId} className="sr-only">
          Filter by email
        </label>
        <input
          id={filterId}
          type="search"
          className={`${inputClass} sm:w-64`}
          placeholder="Filter by email"
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
        />
      </div>
      {list.isError ? (
        <ErrorState error={list.error} onRetry={() => void list.refetch()} />
      ) : list.data?.data.length === 0 ? (
        <EmptyState title={filter ? `No suppression matches “${filter}”` : 'No suppressed addresses'}>
          Herald adds an address here after a hard bounce or a complaint and sends nothing more to it.
          {filter ? (
            <p className="mt-2">
              <Link
                to="?tab=suppressions"
                className="text-link underline underline-offset-2"
                onClick={() => setTyped('')}
              >
                Clear the filter
              </Link>
            </p>
          ) : null}
        </EmptyState>
      ) : (
        <Table label="Suppressions">
          <colgroup>
            <col />
            <col className="hidden w-[140px] sm:table-column" />
            <col className="w-[120px]" />
            <col className="w-[90px]" />
          </colgroup>
          <thead>
            <tr>
              <Th>Email</Th>
              <Th className="hidden sm:table-cell">Reason</Th>
              <Th>Added</Th>
              <Th>
                <span className="sr-only">Actions</span>
              </Th>
            </tr>
          </thead>
          <tbody>
            {list.isPending ? (
              <SkeletonRows rows={3} columns={4} />
            ) : (
              list.data.data.map((s) => (
                <tr key={s.email}>
                  <Td>
                    {s.emailId ? (
                      <Link to={`/emails/${s.emailId}`} className="hover:underline">
                        {s.email}
                      </Link>
                    ) : (
                      s.email
                    )}
                  </Td>
                  <Td className="hidden text-fg-2 sm:table-cell">{reasons[s.reason] ?? s.reason}</Td>
                  <Td className="text-fg-2">
                    <Time value={s.createdAt} />
                  </Td>
                  <Td className="text-right">
                    <Button variant="ghost" aria-label={`Remove ${s.email}`} onClick={() => setRemoving(s.email)}>
                      Remove
                    </Button>
                  </Td>
                </tr>
              ))
            )}
          </tbody>
        </Table>
      )}
      <Pager cursor={cursor} nextCursor={list.data?.nextCursor} onCursor={setCursor} />
      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(open) => {
          if (!open) {
            remove.reset();
            setRemoving(null);
          }
        }}
        title={`Remove ${removing ?? ''} from suppressions?`}
        description="Herald sends to this address again; if it still bounces, it comes back here."
        confirmLabel="Remove"
        pending={remove.isPending}
        error={remove.error?.message}
        onConfirm={() => removing && remove.mutate(removing)}
      />
    </div>
  );
}
