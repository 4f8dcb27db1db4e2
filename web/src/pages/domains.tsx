// Domains: Name, Status, Tracking, Created; the built-in domain pinned first, read-only; add a domain.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { api, ApiFailure, must } from '../api/client.ts';
import { useSignedIn } from '../api/session.ts';
import { useDomains } from '../lib/use-domains.ts';
import { Button } from '../ui/button.tsx';
import { PageHeader, Section } from '../ui/page-header.tsx';
import { ErrorState } from '../ui/states.tsx';
import { StatusBadge, Tag } from '../ui/status-badge.tsx';
import { SkeletonRows, Table, Td, Th } from '../ui/table.tsx';
import { Time } from '../ui/time.tsx';

function AddDomain() {
  const [name, setName] = useState('');
  const inputId = useId();
  const errorId = useId();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const add = useMutation({
    mutationFn: (domain: string) => must(api.POST('/api/v1/domains', { body: { name: domain, region: 'default' } })),
    onSuccess: async (created) => {
      await queryClient.invalidateQueries({ queryKey: ['domains'] });
      navigate(`/domains/${created.id}`);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    add.mutate(name.trim());
  };
  return (
    <form onSubmit={submit} className="flex flex-wrap items-start gap-2" noValidate>
      <div>
        <label htmlFor={inputId} className="sr-only">
          Domain name
        </label>
        <input
          id={inputId}
          placeholder="mail.example.com"
          value={name}
          onChange={(e) => setName(e.target.value)}
          aria-invalid={add.isError}
          aria-describedby={add.isError ? errorId : undefined}
          className="h-8 w-64 rounded-md border border-control bg-bg px-2 text-[13px] placeholder:text-fg-2"
        />
        {add.isError ? (
          <p id={errorId} role="alert" className="mt-1 text-[13px] text-[var(--tone-danger)]">
            {add.error instanceof ApiFailure ? add.error.message : 'The domain was not added'}
          </p>
        ) : null}
      </div>
      <Button type="submit" variant="primary" disabled={add.isPending || name.trim() === ''}>
        Add domain
      </Button>
    </form>
  );
}

export default function Domains() {
  const session = useSignedIn();
  const domains = useDomains();
  return (
    <>
      <title>Domains · Herald</title>
      <PageHeader title="Domains" />
      {domains.isError ? (
        <ErrorState error={domains.error} onRetry={() => void domains.refetch()} />
      ) : (
        <Table label="Domains">
          <colgroup>
            <col />
            <col className="w-[170px]" />
            <col className="hidden w-[160px] sm:table-column" />
            <col className="hidden w-[140px] md:table-column" />
          </colgroup>
          <thead>
            <tr>
              <Th>Name</Th>
              <Th>Status</Th>
              <Th className="hidden sm:table-cell">Tracking</Th>
              <Th className="hidden md:table-cell">Created</Th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <Td>
                <span className="flex items-center gap-2">
                  <span className="truncate">{session.instance.mailDomain}</span>
                  <Tag>Built-in</Tag>
                </span>
              </Td>
              <Td colSpan={3} className="text-fg-2">
                Sends only to your team's members
              </Td>
            </tr>
            {domains.isPending ? (
              <SkeletonRows rows={3} columns={4} />
            ) : (
              domains.data.map((domain) => (
                <tr key={domain.id} className="hover:bg-surface">
                  <Td>
                    <Link to={`/domains/${domain.id}`} className="hover:underline">
                      {domain.name}
                    </Link>
                  </Td>
                  <Td>
                    <StatusBadge state={domain.status} />
                  </Td>
                  <Td className="hidden text-fg-2 sm:table-cell">
                    {[domain.openTracking && 'Opens', domain.clickTracking && 'Clicks'].filter(Boolean).join(', ') ||
                      'Off'}
                  </Td>
                  <Td className="hidden text-fg-2 md:table-cell">
                    <Time value={domain.createdAt} />
                  </Td>
                </tr>
              ))
            )}
          </tbody>
        </Table>
      )}
      <Section title="Add a domain">
        {domains.data?.length === 0 ? (
          <p className="mb-3 max-w-prose text-[13px] text-fg-2">
            The built-in domain sends only to your team's members. To send to anyone, add a domain you control, publish
            its DNS records and verify it.
          </p>
        ) : null}
        <AddDomain />
      </Section>
    </>
  );
}
