// One domain: status in plain words with the last check, Verify now (polls every 3 s while
// isVerifying), the DNS records with copy buttons and "Copy all as zone file", JSON.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { toast } from 'sonner';
import { api, must } from '../api/client.ts';
import { Button } from '../ui/button.tsx';
import { CopyButton } from '../ui/copy-button.tsx';
import { CopyCurl } from '../ui/copy-curl.tsx';
import { MonoBlock } from '../ui/mono-block.tsx';
import { PageHeader, Section } from '../ui/page-header.tsx';
import { ErrorState, isNotFound, Loading } from '../ui/states.tsx';
import { StatusBadge, statusWord } from '../ui/status-badge.tsx';
import { Table, Td, Th } from '../ui/table.tsx';
import { Time } from '../ui/time.tsx';
import { NotFound } from './not-found.tsx';

interface DnsRecord {
  type: string;
  name: string;
  value: string;
  ttl: string;
  priority: string | null;
}

function zoneFile(records: DnsRecord[]): string {
  return records
    .map((r) => {
      const ttl = /^\d+$/.test(r.ttl) ? r.ttl : '3600';
      const value = r.type === 'TXT' ? `"${r.value.replace(/"/g, '\\"')}"` : r.value;
      return `${r.name}.\t${ttl}\tIN\t${r.type}\t${r.priority ? `${r.priority} ` : ''}${value}`;
    })
    .join('\n');
}

export default function DomainDetail() {
  const { id = '' } = useParams();
  const domainId = /^\d+$/.test(id) ? Number(id) : -1;
  const queryClient = useQueryClient();
  const domain = useQuery({
    queryKey: ['domains', 'one', domainId],
    queryFn: ({ signal }) => must(api.GET('/api/v1/domains/{id}', { params: { path: { id: domainId } }, signal })),
    refetchInterval: (query) => (query.state.data?.isVerifying ? 3000 : false),
    refetchIntervalInBackground: false,
  });
  const verify = useMutation({
    mutationFn: () => must(api.PUT('/api/v1/domains/{id}/verify', { params: { path: { id: domainId } } })),
    onSuccess: async (answer) => {
      toast(answer.message);
      await queryClient.invalidateQueries({ queryKey: ['domains'] });
    },
    onError: (error) => toast.error(error.message),
  });

  if (domainId < 0) return <NotFound what="domain" back={{ to: '/domains', label: 'Back to Domains' }} />;
  if (domain.isPending) return <Loading label="Loading the domain" />;
  if (domain.isError) {
    if (isNotFound(domain.error)) return <NotFound what="domain" back={{ to: '/domains', label: 'Back to Domains' }} />;
    return <ErrorState error={domain.error} onRetry={() => void domain.refetch()} />;
  }
  const d = domain.data;
  const records = d.dnsRecords;
  return (
    <>
      <title>{`${d.name} · Herald`}</title>
      <nav aria-label="Breadcrumb" className="mb-2 text-[13px] text-fg-2">
        <Link to="/domains" className="hover:underline">
          Domains
        </Link>
      </nav>
      <PageHeader
        title={d.name}
        badges={<StatusBadge state={d.status} />}
        facts={
          <>
            <span>
              Created <Time value={d.createdAt} />
            </span>
            <span>
              {d.lastCheckedTime ? (
                <>
                  Checked <Time value={d.lastCheckedTime} />
                </>
              ) : (
                'Not checked yet'
              )}
            </span>
          </>
        }
        actions={
          <>
            <CopyCurl path={`/api/v1/domains/${d.id}`} />
            <Button variant="primary" disabled={verify.isPending || d.isVerifying} onClick={() => verify.mutate()}>
              {d.isVerifying ? 'Verifying…' : 'Verify now'}
            </Button>
          </>
        }
      />
      <p className="max-w-prose text-[13px]" role="status">
        {statusWord(d.status)}
        {d.verificationError
          ? `: ${d.verificationError}`
          : d.status === 'SUCCESS'
            ? ': every required record was found.'
            : '.'}
        {d.errorMessage ? ` ${d.errorMessage}` : ''}
      </p>
      <Section
        title="DNS records"
        actions={
          <span className="inline-flex items-center gap-1 text-[13px]">
            Copy all as zone file <CopyButton value={zoneFile(records)} label="Copy all records as a zone file" />
          </span>
        }
      >
        <Table label="DNS records" className="hidden md:block">
          <colgroup>
            <col className="w-[64px]" />
            <col className="w-[30%]" />
            <col />
            <col className="hidden w-[70px] md:table-column" />
            <col className="hidden w-[70px] md:table-column" />
            <col className="w-[150px]" />
          </colgroup>
          <thead>
            <tr>
              <Th>Type</Th>
              <Th>Name</Th>
              <Th>Value</Th>
              <Th className="hidden md:table-cell">TTL</Th>
              <Th className="hidden md:table-cell">Priority</Th>
              <Th>Status</Th>
            </tr>
          </thead>
          <tbody>
            {records.map((r, i) => (
              <tr key={`${r.type}-${r.name}-${i}`} className="align-top">
                <Td className="font-mono text-[12px]">{r.type}</Td>
                <Td className="whitespace-normal">
                  <span className="flex items-start gap-1">
                    <code className="min-w-0 py-1 font-mono text-[12px] break-all">{r.name}</code>
                    <CopyButton value={r.name} label={`Copy ${r.type} record name`} />
                  </span>
                </Td>
                <Td className="whitespace-normal">
                  <span className="flex items-start gap-1">
                    <code className="min-w-0 py-1 font-mono text-[12px] break-all">{r.value}</code>
                    <CopyButton value={r.value} label={`Copy ${r.type} record value for ${r.name}`} />
                  </span>
                  {r.recommended ? <span className="text-[12px] text-fg-2">Recommended, not required</span> : null}
                </Td>
                <Td className="hidden font-mono text-[12px] md:table-cell">{r.ttl}</Td>
                <Td className="hidden font-mono text-[12px] md:table-cell">{r.priority ?? '—'}</Td>
                <Td>
                  <StatusBadge state={r.status} />
                </Td>
              </tr>
            ))}
          </tbody>
        </Table>
        {/* Under 768 px each record stacks (a table of five columns cannot show a DKIM key at 375 px). */}
        <ul aria-label="DNS records" className="divide-y divide-line rounded-lg border border-line md:hidden">
          {records.map((r, i) => (
            <li key={`${r.type}-${r.name}-${i}`} className="space-y-1 p-3 text-[13px]">
              <div className="flex items-center justify-between gap-2">
                <span className="font-mono text-[12px]">
                  {r.type}
                  {r.priority ? ` · priority ${r.priority}` : ''} · TTL {r.ttl}
                </span>
                <StatusBadge state={r.status} />
              </div>
              <div className="flex items-start gap-1">
                <code className="min-w-0 flex-1 py-1 font-mono text-[12px] break-all">{r.name}</code>
                <CopyButton value={r.name} label={`Copy ${r.type} record name`} />
              </div>
              <div className="flex items-start gap-1">
                <code className="min-w-0 flex-1 py-1 font-mono text-[12px] break-all text-fg-2">{r.value}</code>
                <CopyButton value={r.value} label={`Copy ${r.type} record value for ${r.name}`} />
              </div>
              {r.recommended ? <p className="text-[12px] text-fg-2">Recommended, not required</p> : null}
            </li>
          ))}
        </ul>
        <p className="mt-2 max-w-prose text-[12px] text-fg-2">
          Some DNS hosts add the domain to the name themselves: if yours does, enter the name without “.{d.name}”.
        </p>
      </Section>
      <Section title="JSON">
        <MonoBlock text={JSON.stringify(d, null, 2)} copyLabel="Copy JSON" />
      </Section>
    </>
  );
}
