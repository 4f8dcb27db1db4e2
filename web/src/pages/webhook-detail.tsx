// One webhook: status, Send test, Pause/Resume (undo toast), Rotate secret (shown once), Delete
// (type the URL); tabs Calls (a side panel per call) and JSON.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { toast } from 'sonner';
import { api, ApiFailure, must } from '../api/client.ts';
import { Button } from '../ui/button.tsx';
import { CopyCurl } from '../ui/copy-curl.tsx';
import { ConfirmDialog, SecretDialog } from '../ui/dialog.tsx';
import { MonoBlock } from '../ui/mono-block.tsx';
import { PageHeader } from '../ui/page-header.tsx';
import { ErrorState, Loading } from '../ui/states.tsx';
import { StatusBadge } from '../ui/status-badge.tsx';
import { UrlTabs } from '../ui/tabs.tsx';
import { Time } from '../ui/time.tsx';
import { NotFound } from './not-found.tsx';
import { WebhookCalls } from './webhook-calls.tsx';

const back = { to: '/webhooks', label: 'Back to Webhooks' };

export default function WebhookDetail() {
  const { id = '' } = useParams();
  const path = { params: { path: { webhookId: id } } };
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [confirm, setConfirm] = useState<'rotate' | 'delete' | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const hook = useQuery({
    queryKey: ['webhooks', 'one', id],
    queryFn: ({ signal }) => must(api.GET('/api/v1/webhooks/{webhookId}', { ...path, signal })),
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['webhooks'] });
  const test = useMutation({
    mutationFn: () => must(api.POST('/api/v1/webhooks/{webhookId}/test', path)),
    onSuccess: async () => {
      toast('Test event queued');
      await queryClient.invalidateQueries({ queryKey: ['webhook-calls', id] });
    },
    onError: (error) => toast.error(error.message),
  });
  const setStatus = useMutation({
    mutationFn: (status: 'ACTIVE' | 'PAUSED') =>
      must(api.POST('/api/v1/webhooks/{webhookId}/status', { ...path, body: { status } })),
    onSuccess: async (_answer, status) => {
      await refresh();
      toast(status === 'PAUSED' ? 'Webhook paused' : 'Webhook resumed', {
        action: {
          label: 'Undo',
          onClick: () => setStatus.mutate(status === 'PAUSED' ? 'ACTIVE' : 'PAUSED'),
        },
      });
    },
    onError: (error) => toast.error(error.message),
  });
  const rotate = useMutation({
    mutationFn: () => must(api.POST('/api/v1/webhooks/{webhookId}/rotate-secret', path)),
    onSuccess: async (answer) => {
      setConfirm(null);
      setSecret(answer.secret ?? '');
      await refresh();
    },
  });
  const remove = useMutation({
    mutationFn: () => must(api.DELETE('/api/v1/webhooks/{webhookId}', path)),
    onSuccess: async () => {
      toast('Webhook deleted');
      queryClient.removeQueries({ queryKey: ['webhooks', 'one', id] });
      await refresh();
      navigate('/webhooks');
    },
  });

  if (hook.isPending) return <Loading label="Loading the webhook" />;
  if (hook.isError) {
    if (hook.error instanceof ApiFailure && hook.error.status === 404) return <NotFound what="webhook" back={back} />;
    return <ErrorState error={hook.error} onRetry={() => void hook.refetch()} />;
  }
  const w = hook.data;
  const paused = w.status !== 'ACTIVE';
  return (
    <>
      <title>{`Webhook ${w.url} · Herald`}</title>
      <nav aria-label="Breadcrumb" className="mb-2 text-[13px] text-fg-2">
        <Link to="/webhooks" className="hover:underline">
          Webhooks
        </Link>
      </nav>
      <PageHeader
        title={<span className="font-mono text-[18px] break-all">{w.url}</span>}
        badges={<StatusBadge state={w.status} />}
        facts={
          <>
            <span>{w.eventTypes.length === 0 ? 'All events' : `${w.eventTypes.length} events`}</span>
            <span>
              Secret <code className="font-mono text-[12px]">{w.secretHint}</code>
            </span>
            <span>
              Created <Time value={w.createdAt} />
            </span>
            <span>
              Last success <Time value={w.lastSuccessAt} />
            </span>
          </>
        }
        actions={
          <>
            <CopyCurl path={`/api/v1/webhooks/${w.id}`} />
            <Button disabled={setStatus.isPending} onClick={() => setStatus.mutate(paused ? 'ACTIVE' : 'PAUSED')}>
              {paused ? 'Resume' : 'Pause'}
            </Button>
            <Button onClick={() => setConfirm('rotate')}>Rotate secret</Button>
            <Button variant="danger" onClick={() => setConfirm('delete')}>
              Delete
            </Button>
            <Button variant="primary" disabled={test.isPending} onClick={() => test.mutate()}>
              Send test
            </Button>
          </>
        }
      />
      {w.status === 'AUTO_DISABLED' ? (
        <p
          role="status"
          className="mb-4 rounded-md bg-[var(--tone-danger-bg)] p-3 text-[13px] text-[var(--tone-danger)]"
        >
          Herald disabled this webhook after {w.consecutiveFailures} failed calls in a row. Fix the endpoint, then
          Resume.
        </p>
      ) : null}
      <UrlTabs
        label="Webhook"
        tabs={[
          { value: 'calls', label: 'Calls', content: <WebhookCalls webhookId={w.id} /> },
          {
            value: 'json',
            label: 'JSON',
            content: <MonoBlock text={JSON.stringify(w, null, 2)} copyLabel="Copy JSON" />,
          },
        ]}
      />
      <ConfirmDialog
        open={confirm === 'rotate'}
        onOpenChange={(open) => setConfirm(open ? 'rotate' : null)}
        title="Rotate the signing secret?"
        description="Calls are signed with the new secret at once; your endpoint fails to verify them until it has it."
        confirmLabel="Rotate secret"
        pending={rotate.isPending}
        error={rotate.error?.message}
        onConfirm={() => rotate.mutate()}
      />
      <ConfirmDialog
        open={confirm === 'delete'}
        onOpenChange={(open) => setConfirm(open ? 'delete' : null)}
        title="Delete this webhook?"
        description="Herald stops calling it at once and forgets its calls. This cannot be undone."
        confirmLabel="Delete webhook"
        typeToConfirm={w.url}
        pending={remove.isPending}
        error={remove.error?.message}
        onConfirm={() => remove.mutate()}
      />
      <SecretDialog
        title="The new signing secret"
        what="signing secret"
        secret={secret}
        onClose={() => setSecret(null)}
      />
    </>
  );
}
