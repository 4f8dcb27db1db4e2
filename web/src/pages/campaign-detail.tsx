// One campaign: name as h1, status, id. A draft is composed here, step by step, then tested and
// scheduled; once scheduled it can be paused and resumed (undo toast) or deleted (type the name).
// While it sends the page polls every 5 s (refetchInterval as a function: never once it is still)
// and shows its progress, statistics and recipients; tabs Content and JSON show the API's answer.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState, type ReactNode } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { toast } from 'sonner';
import { api, must } from '../api/client.ts';
import { Button } from '../ui/button.tsx';
import { CopyableId } from '../ui/copy-button.tsx';
import { CopyCurl } from '../ui/copy-curl.tsx';
import { ConfirmDialog } from '../ui/dialog.tsx';
import { MonoBlock } from '../ui/mono-block.tsx';
import { PageHeader, Section } from '../ui/page-header.tsx';
import { ErrorState, isNotFound, Loading } from '../ui/states.tsx';
import { UrlTabs, type TabSpec } from '../ui/tabs.tsx';
import { Time } from '../ui/time.tsx';
import { CampaignStatusBadge, liveInterval, type Campaign } from './campaign-common.tsx';
import { CampaignCompose } from './campaign-compose.tsx';
import { ContentPreview } from './campaign-content.tsx';
import { CampaignFacts } from './campaign-facts.tsx';
import { CampaignRecipients } from './campaign-recipients.tsx';
import { ScheduleDialog, type SaveFirst } from './campaign-send.tsx';
import { CampaignStats } from './campaign-stats.tsx';
import { NotFound } from './not-found.tsx';

const back = { to: '/campaigns', label: 'Back to Campaigns' };

function useCampaignActions(c: Campaign | undefined) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const path = { params: { path: { id: c?.id ?? '' } } };
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['campaigns'] });
  const toggle = useMutation({
    mutationFn: async (action: 'pause' | 'resume') => {
      if (action === 'pause') await must(api.POST('/api/v1/campaigns/{id}/pause', path));
      else await must(api.POST('/api/v1/campaigns/{id}/resume', path));
    },
    onSuccess: async (_answer, action) => {
      await refresh();
      // Reversible, so no dialog: an undo toast instead (design brief, principle 7).
      toast(action === 'pause' ? 'Campaign paused' : 'Campaign resumed', {
        action: { label: 'Undo', onClick: () => toggle.mutate(action === 'pause' ? 'resume' : 'pause') },
      });
    },
    onError: (error) => toast.error(error.message),
  });
  const remove = useMutation({
    mutationFn: () => must(api.DELETE('/api/v1/campaigns/{id}', path)),
    onSuccess: async () => {
      toast('Campaign deleted');
      queryClient.removeQueries({ queryKey: ['campaigns', 'one', c?.id] });
      await refresh();
      navigate('/campaigns');
    },
  });
  return { toggle, remove };
}

function tabsOf(c: Campaign, onSchedule: (saveFirst: SaveFirst) => void): TabSpec[] {
  const json = {
    value: 'json',
    label: 'JSON',
    content: <MonoBlock text={JSON.stringify(c, null, 2)} copyLabel="Copy JSON" />,
  };
  if (c.status === 'DRAFT')
    return [
      { value: 'compose', label: 'Compose', content: <CampaignCompose campaign={c} onSchedule={onSchedule} /> },
      json,
    ];
  return [
    {
      value: 'overview',
      label: 'Overview',
      content: (
        <div className="grid gap-8 xl:grid-cols-[minmax(0,1fr)_minmax(0,360px)]">
          <Section title="Statistics">
            <CampaignStats campaign={c} />
          </Section>
          <Section title="Details">
            <CampaignFacts campaign={c} />
          </Section>
        </div>
      ),
    },
    {
      value: 'recipients',
      label: 'Recipients',
      content: <CampaignRecipients campaignId={c.id} live={liveInterval(c) === 5000} />,
    },
    { value: 'content', label: 'Content', content: <ContentPreview html={c.html} templateId={c.templateId} /> },
    json,
  ];
}

/** One line in plain words: where the campaign stands. */
function StatusLine({ campaign: c }: { campaign: Campaign }) {
  const tone = c.pausedReason === 'QUOTA' ? 'text-[var(--tone-warning)]' : 'text-fg-2';
  let text: ReactNode = null;
  if (c.status === 'SCHEDULED')
    text = (
      <>
        Starts <Time value={c.scheduledAt} mode="absolute" />.
      </>
    );
  else if (c.status === 'RUNNING') text = 'Sending now; the numbers update every 5 seconds.';
  else if (c.status === 'PAUSED')
    text =
      c.pausedReason === 'QUOTA'
        ? 'Paused: the plan’s sending limit was reached. It goes on by itself when the limit allows, or Resume once the plan allows more.'
        : 'Paused by hand: nothing more is sent until you resume it.';
  else if (c.status === 'SENT')
    text = (
      <>
        Sent: every recipient’s email is on its way or delivered. Finished <Time value={c.finishedAt} mode="absolute" />
        .
      </>
    );
  if (!text) return null;
  return (
    <p role="status" className={`mb-4 text-[13px] ${tone}`}>
      {text}
    </p>
  );
}

export default function CampaignDetail() {
  const { id = '' } = useParams();
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [scheduling, setScheduling] = useState(false);
  const saveFirst = useRef<SaveFirst | undefined>(undefined);
  const campaign = useQuery({
    queryKey: ['campaigns', 'one', id],
    queryFn: ({ signal }) => must(api.GET('/api/v1/campaigns/{id}', { params: { path: { id } }, signal })),
    refetchInterval: (query) => liveInterval(query.state.data),
  });
  const { toggle, remove } = useCampaignActions(campaign.data);

  if (campaign.isPending) return <Loading label="Loading the campaign" />;
  if (campaign.isError) {
    if (isNotFound(campaign.error)) return <NotFound what="campaign" back={back} />;
    return <ErrorState error={campaign.error} onRetry={() => void campaign.refetch()} />;
  }
  const c = campaign.data;
  const openSchedule = (first?: SaveFirst) => {
    saveFirst.current = first;
    setScheduling(true);
  };
  const pausable = c.status === 'SCHEDULED' || c.status === 'RUNNING';
  const deletable = c.status !== 'RUNNING';
  return (
    <>
      <title>{`${c.name} · Campaigns · Herald`}</title>
      <nav aria-label="Breadcrumb" className="mb-2 text-[13px] text-fg-2">
        <Link to="/campaigns" className="hover:underline">
          Campaigns
        </Link>
      </nav>
      <PageHeader
        title={c.name}
        badges={<CampaignStatusBadge status={c.status} />}
        facts={
          <>
            <CopyableId id={c.id} what="campaign" />
            <span>
              Created <Time value={c.createdAt} />
            </span>
            <span>
              Updated <Time value={c.updatedAt} />
            </span>
          </>
        }
        actions={
          <>
            <CopyCurl path={`/api/v1/campaigns/${c.id}`} />
            {deletable ? (
              <Button variant="danger" onClick={() => setConfirmDelete(true)}>
                Delete
              </Button>
            ) : null}
            {pausable ? (
              <Button disabled={toggle.isPending} onClick={() => toggle.mutate('pause')}>
                Pause
              </Button>
            ) : null}
            {c.status === 'PAUSED' ? (
              <Button variant="primary" disabled={toggle.isPending} onClick={() => toggle.mutate('resume')}>
                Resume
              </Button>
            ) : null}
            {c.status === 'SCHEDULED' ? <Button onClick={() => openSchedule()}>Reschedule…</Button> : null}
          </>
        }
      />
      <StatusLine campaign={c} />
      <UrlTabs label="Campaign" tabs={tabsOf(c, openSchedule)} />
      {scheduling ? (
        <ScheduleDialog campaign={c} open onOpenChange={setScheduling} saveFirst={saveFirst.current} />
      ) : null}
      <ConfirmDialog
        open={confirmDelete}
        onOpenChange={setConfirmDelete}
        title={`Delete campaign ${c.name}?`}
        description={
          c.status === 'DRAFT'
            ? 'The draft and its content are deleted. This cannot be undone.'
            : 'The campaign and its statistics are deleted. This cannot be undone.'
        }
        confirmLabel="Delete campaign"
        typeToConfirm={c.name}
        pending={remove.isPending}
        error={remove.error?.message}
        onConfirm={() => remove.mutate()}
      />
    </>
  );
}
