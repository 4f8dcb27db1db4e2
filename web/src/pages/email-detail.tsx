// One email: subject as h1, status, id, created; metadata; the event timeline (each event's badge,
// time, +Δ from the previous one, and its data: the SMTP answer verbatim in mono); tabs Preview,
// Text, HTML, Headers, JSON (the API's answer) with "Copy as curl" for the request behind it.
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { api, must } from '../api/client.ts';
import { CopyableId } from '../ui/copy-button.tsx';
import { CopyCurl } from '../ui/copy-curl.tsx';
import { MonoBlock } from '../ui/mono-block.tsx';
import { PageHeader, Section } from '../ui/page-header.tsx';
import { ErrorState, isNotFound, Loading } from '../ui/states.tsx';
import { StatusBadge, Tag } from '../ui/status-badge.tsx';
import { UrlTabs } from '../ui/tabs.tsx';
import { Time } from '../ui/time.tsx';
import { simulated } from './emails-table.tsx';
import { EmailPreview } from './email-preview.tsx';
import { ScheduleActions } from './emails-schedule.tsx';
import { NotFound } from './not-found.tsx';

type Addresses = string | string[] | null | undefined;
const asList = (value: Addresses): string[] => (value == null ? [] : Array.isArray(value) ? value : [value]);

function AddressLinks({ value }: { value: Addresses }) {
  const list = asList(value);
  if (list.length === 0) return <span className="text-fg-2">—</span>;
  return (
    <span className="flex flex-wrap gap-x-2">
      {list.map((address) => (
        <span key={address} className="inline-flex items-center gap-1 break-all">
          {address}
          {simulated(address) ? <Tag>Simulated</Tag> : null}
        </span>
      ))}
    </span>
  );
}

function delta(ms: number): string {
  if (ms < 1000) return `+${ms} ms`;
  if (ms < 60_000) return `+${(ms / 1000).toFixed(1)} s`;
  if (ms < 3600_000) return `+${Math.round(ms / 60_000)} min`;
  return `+${(ms / 3600_000).toFixed(1)} h`;
}

/** The fields worth a line of their own; the rest of an event's data follows as key: value. */
function EventData({ data }: { data: unknown }) {
  if (!data || typeof data !== 'object') return null;
  const record = data as Record<string, unknown>;
  const { response, remoteMta, nextAttemptAt, ...rest } = record;
  return (
    <div className="mt-1 space-y-1 text-[12px]">
      {typeof remoteMta === 'string' ? <p className="text-fg-2">MX {remoteMta}</p> : null}
      {typeof response === 'string' ? (
        <p className="font-mono break-words whitespace-pre-wrap rounded bg-surface px-2 py-1">{response}</p>
      ) : null}
      {typeof nextAttemptAt === 'string' ? (
        <p className="text-fg-2">
          Next attempt <Time value={nextAttemptAt} mode="absolute" />
        </p>
      ) : null}
      {Object.keys(rest).length > 0 ? (
        <dl className="grid grid-cols-[max-content_1fr] gap-x-3 text-fg-2">
          {Object.entries(rest).map(([key, value]) => (
            <div key={key} className="contents">
              <dt>{key}</dt>
              <dd className="font-mono break-all">{typeof value === 'string' ? value : JSON.stringify(value)}</dd>
            </div>
          ))}
        </dl>
      ) : null}
    </div>
  );
}

export default function EmailDetail() {
  const { id = '' } = useParams();
  const email = useQuery({
    queryKey: ['emails', 'one', id],
    queryFn: ({ signal }) => must(api.GET('/api/v1/emails/{emailId}', { params: { path: { emailId: id } }, signal })),
    // The timeline fills live while the email is on its way.
    refetchInterval: (query) => {
      const status = query.state.data?.latestStatus;
      return status === 'QUEUED' || status === 'SCHEDULED' || status === 'DELIVERY_DELAYED' ? 2000 : false;
    },
  });
  if (email.isPending) return <Loading label="Loading the email" />;
  if (email.isError) {
    if (isNotFound(email.error)) return <NotFound what="email" back={{ to: '/emails', label: 'Back to Emails' }} />;
    return <ErrorState error={email.error} onRetry={() => void email.refetch()} />;
  }
  const e = email.data;
  const json = JSON.stringify(e, null, 2);
  const facts: [string, ReactNode][] = [
    ['From', <AddressLinks value={e.from} />],
    ['To', <AddressLinks value={e.to} />],
    ['Cc', <AddressLinks value={e.cc} />],
    ['Bcc', <AddressLinks value={e.bcc} />],
    ['Reply-To', <AddressLinks value={e.replyTo} />],
    ['Campaign', e.campaignId ? <code className="font-mono text-[12px]">{e.campaignId}</code> : '—'],
    ['Attempts', <span className="tabular">{e.attempts}</span>],
    ['Next attempt', <Time value={e.nextAttemptAt} mode="absolute" />],
    ['Updated', <Time value={e.updatedAt} />],
  ];
  const headers = [
    ['From', e.from],
    ['To', asList(e.to).join(', ')],
    ['Cc', asList(e.cc).join(', ')],
    ['Reply-To', asList(e.replyTo).join(', ')],
    ['Subject', e.subject],
  ].filter(([, v]) => v !== '');

  return (
    <>
      <title>{`${e.subject || 'Email'} · Herald`}</title>
      <nav aria-label="Breadcrumb" className="mb-2 text-[13px] text-fg-2">
        <Link to="/emails" className="hover:underline">
          Emails
        </Link>
      </nav>
      <PageHeader
        title={e.subject || '(no subject)'}
        badges={<StatusBadge state={e.latestStatus} />}
        facts={
          <>
            <CopyableId id={e.id} what="email" />
            <span>
              Created <Time value={e.createdAt} mode="absolute" />
            </span>
          </>
        }
        actions={
          <>
            <ScheduleActions email={e} />
            <CopyCurl path={`/api/v1/emails/${e.id}`} />
          </>
        }
      />
      <div className="grid gap-8 xl:grid-cols-[minmax(0,1fr)_320px]">
        <div className="min-w-0">
          <dl className="grid grid-cols-[max-content_1fr] gap-x-6 gap-y-1 text-[13px]">
            {facts.map(([label, value]) => (
              <div key={label} className="contents">
                <dt className="text-fg-2">{label}</dt>
                <dd className="min-w-0">{value}</dd>
              </div>
            ))}
          </dl>
          <div className="mt-8">
            <UrlTabs
              label="Email content"
              tabs={[
                {
                  value: 'preview',
                  label: 'Preview',
                  content: e.html ? (
                    <EmailPreview html={e.html} />
                  ) : (
                    <p className="text-[13px] text-fg-2">This email has no HTML part.</p>
                  ),
                },
                { value: 'text', label: 'Text', content: <MonoBlock text={e.text ?? ''} copyLabel="Copy text" /> },
                { value: 'html', label: 'HTML', content: <MonoBlock text={e.html ?? ''} copyLabel="Copy HTML" /> },
                {
                  value: 'headers',
                  label: 'Headers',
                  content: (
                    <MonoBlock text={headers.map(([k, v]) => `${k}: ${v}`).join('\n')} copyLabel="Copy headers" />
                  ),
                },
                { value: 'json', label: 'JSON', content: <MonoBlock text={json} copyLabel="Copy JSON" /> },
              ]}
            />
          </div>
        </div>
        <Section title="Events">
          <ol className="space-y-4 border-l border-line pl-4">
            {e.emailEvents.map((event, i) => {
              const previous = e.emailEvents[i - 1];
              const gap = previous ? Date.parse(event.createdAt) - Date.parse(previous.createdAt) : null;
              return (
                <li key={`${event.status}-${event.createdAt}-${i}`} className="text-[13px]">
                  <div className="flex flex-wrap items-center gap-2">
                    <StatusBadge state={event.status} />
                    <Time value={event.createdAt} mode="absolute" />
                    {gap !== null ? <span className="text-[12px] text-fg-2 tabular">{delta(gap)}</span> : null}
                  </div>
                  <EventData data={event.data} />
                </li>
              );
            })}
          </ol>
        </Section>
      </div>
    </>
  );
}
