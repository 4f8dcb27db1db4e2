// A campaign past its draft: what it sends, to whom and when, beside its statistics.
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { formatCount } from '../ui/format.ts';
import { Time } from '../ui/time.tsx';
import { AudienceName } from './campaign-audience.tsx';
import type { Campaign } from './campaign-common.tsx';
import { useTemplates } from './campaign-content.tsx';

function TemplateName({ id }: { id: string }) {
  const templates = useTemplates();
  const template = templates.data?.find((t) => t.id === id);
  return template ? <span>{template.name}</span> : <code className="font-mono text-[12px]">{id}</code>;
}

const list = (values: string[]) => (values.length > 0 ? values.join(', ') : '—');

export function CampaignFacts({ campaign: c }: { campaign: Campaign }) {
  const facts: [string, ReactNode][] = [
    ['From', <span className="break-all">{c.from}</span>],
    ['Subject', c.subject],
    ['Preview text', c.previewText || '—'],
    ['Reply-To', <span className="break-all">{list(c.replyTo)}</span>],
    ['Audience', <AudienceName bookId={c.contactBookId} segmentId={c.segmentId} />],
    ['Template', c.templateId ? <TemplateName id={c.templateId} /> : '—'],
    ['Scheduled', <Time value={c.scheduledAt} mode="absolute" />],
    ['Started', <Time value={c.startedAt} mode="absolute" />],
    ['Finished', <Time value={c.finishedAt} mode="absolute" />],
    [
      'Pace',
      c.batchWindowMinutes > 0
        ? `${formatCount(c.batchSize)} emails every ${formatCount(c.batchWindowMinutes)} min`
        : 'As fast as delivery allows',
    ],
    [
      'Emails',
      <Link to={`/emails?campaign=${c.id}`} className="text-link underline underline-offset-2">
        This campaign’s emails in the log
      </Link>,
    ],
  ];
  return (
    <dl className="grid grid-cols-[max-content_minmax(0,1fr)] gap-x-6 gap-y-1 text-[13px]">
      {facts.map(([label, value]) => (
        <div key={label} className="contents">
          <dt className="text-fg-2">{label}</dt>
          <dd className="min-w-0">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
