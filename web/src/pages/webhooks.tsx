// Webhooks: URL, Status, Events ("All" or n), Last 24 h, Created; an empty state that teaches; a
// create dialog with the event picker; the signing secret shown once in a "copy it now" dialog.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { api, must } from '../api/client.ts';
import { useSignedIn } from '../api/session.ts';
import { Button } from '../ui/button.tsx';
import { curlFor } from '../ui/copy-curl.tsx';
import { Field, FormDialog, inputClass, SecretDialog, splitFieldError } from '../ui/dialog.tsx';
import { EventPicker, type EventType } from '../ui/event-picker.tsx';
import { MonoBlock } from '../ui/mono-block.tsx';
import { PageHeader } from '../ui/page-header.tsx';
import { EmptyState, ErrorState } from '../ui/states.tsx';
import { StatusBadge } from '../ui/status-badge.tsx';
import { SkeletonRows, Table, Td, Th } from '../ui/table.tsx';
import { Time } from '../ui/time.tsx';

function CreateWebhook({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<EventType[]>([]);
  const [created, setCreated] = useState<{ id: string; secret: string } | null>(null);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const create = useMutation({
    mutationFn: () =>
      must(
        api.POST('/api/v1/webhooks', {
          body: {
            url: url.trim(),
            eventTypes: events,
            ...(description.trim() ? { description: description.trim() } : {}),
          },
        }),
      ),
    onSuccess: async (hook) => {
      await queryClient.invalidateQueries({ queryKey: ['webhooks'] });
      onOpenChange(false);
      setCreated({ id: hook.id, secret: hook.secret ?? '' });
    },
  });
  const failure = splitFieldError(create.error, ['url', 'eventTypes', 'description']);
  return (
    <>
      <FormDialog
        open={open}
        onOpenChange={(next) => {
          if (!next) create.reset();
          onOpenChange(next);
        }}
        title="Add a webhook"
        description="Herald posts each event to this URL, signed with the webhook's secret (Standard Webhooks)."
        submitLabel="Add webhook"
        pending={create.isPending}
        error={failure && !failure.field ? failure.message : null}
        onSubmit={() => create.mutate()}
      >
        <Field label="Endpoint URL" error={failure?.field === 'url' ? failure.message : undefined}>
          {(props) => (
            <input
              {...props}
              className={inputClass}
              type="url"
              placeholder="https://example.com/herald"
              value={url}
              onChange={(e) => setUrl(e.target.value)}
            />
          )}
        </Field>
        <Field label="Description (optional)" error={failure?.field === 'description' ? failure.message : undefined}>
          {(props) => (
            <input
              {...props}
              className={inputClass}
              value={description}
              onChange={(e) => setDescription(e.target.value)}
            />
          )}
        </Field>
        <EventPicker value={events} onChange={setEvents} />
        {failure?.field === 'eventTypes' ? (
          <p className="text-[13px] text-[var(--tone-danger)]">{failure.message}</p>
        ) : null}
      </FormDialog>
      <SecretDialog
        title="Webhook added: its signing secret"
        what="signing secret"
        secret={created?.secret ?? null}
        onClose={() => {
          const id = created?.id;
          setCreated(null);
          if (id) navigate(`/webhooks/${id}`);
        }}
      />
    </>
  );
}

export default function Webhooks() {
  const session = useSignedIn();
  const [creating, setCreating] = useState(false);
  const hooks = useQuery({
    queryKey: ['webhooks'],
    queryFn: ({ signal }) => must(api.GET('/api/v1/webhooks', { signal })),
  });
  const add = (
    <Button variant="primary" onClick={() => setCreating(true)}>
      Add webhook
    </Button>
  );
  return (
    <>
      <title>Webhooks · Herald</title>
      <PageHeader title="Webhooks" actions={hooks.data?.data.length ? add : null} />
      {hooks.isError ? (
        <ErrorState error={hooks.error} onRetry={() => void hooks.refetch()} />
      ) : hooks.data?.data.length === 0 ? (
        <EmptyState title="No webhooks yet" action={add}>
          <p>Add a webhook to hear about deliveries, bounces and opens as they happen, then send it a test event.</p>
          <div className="mt-3 text-left">
            <MonoBlock
              copyLabel="Copy curl"
              text={`${curlFor(session.instance.publicUrl, '/api/v1/webhooks', 'POST')} \\\n  -H "Content-Type: application/json" \\\n  -d '{"url":"https://example.com/herald","eventTypes":[]}'`}
            />
          </div>
        </EmptyState>
      ) : (
        <Table label="Webhooks">
          <colgroup>
            <col />
            <col className="w-[130px]" />
            <col className="hidden w-[90px] sm:table-column" />
            <col className="hidden w-[170px] md:table-column" />
            <col className="hidden w-[130px] md:table-column" />
          </colgroup>
          <thead>
            <tr>
              <Th>URL</Th>
              <Th>Status</Th>
              <Th className="hidden sm:table-cell">Events</Th>
              <Th className="hidden md:table-cell">Last 24 h</Th>
              <Th className="hidden md:table-cell">Created</Th>
            </tr>
          </thead>
          <tbody>
            {hooks.isPending ? (
              <SkeletonRows rows={3} columns={5} />
            ) : (
              hooks.data.data.map((hook) => (
                <tr key={hook.id} className="hover:bg-surface">
                  <Td>
                    <Link to={`/webhooks/${hook.id}`} className="font-mono text-[12px] hover:underline">
                      {hook.url}
                    </Link>
                  </Td>
                  <Td>
                    <StatusBadge state={hook.status} />
                  </Td>
                  <Td className="hidden tabular sm:table-cell">
                    {hook.eventTypes.length === 0 ? 'All' : hook.eventTypes.length}
                  </Td>
                  <Td className="hidden text-fg-2 tabular md:table-cell">
                    {hook.last24h
                      ? `${hook.last24h.ok} ok · ${hook.last24h.retried} retried · ${hook.last24h.failed} failed`
                      : '—'}
                  </Td>
                  <Td className="hidden text-fg-2 md:table-cell">
                    <Time value={hook.createdAt} />
                  </Td>
                </tr>
              ))
            )}
          </tbody>
        </Table>
      )}
      <CreateWebhook open={creating} onOpenChange={setCreating} />
    </>
  );
}
