// One SMS in a side panel (?sms= in the URL): read by id from the API, so an unknown id or another
// team's answers "not found" in the panel; status, charge, reason, ids, the JSON and its curl.
import { useQuery } from '@tanstack/react-query';
import { X } from 'lucide-react';
import { Dialog } from 'radix-ui';
import type { ReactNode } from 'react';
import { api, must } from '../api/client.ts';
import { CopyableId } from '../ui/copy-button.tsx';
import { CopyCurl } from '../ui/copy-curl.tsx';
import { MessagingBadge } from '../ui/messaging-badges.tsx';
import { MonoBlock } from '../ui/mono-block.tsx';
import { ErrorState, isNotFound, Loading } from '../ui/states.tsx';
import { Time } from '../ui/time.tsx';
import { formatCharge, smsMoving } from './sms-format.ts';

export function SidePanel({
  title,
  onClose,
  children,
}: {
  title: ReactNode;
  onClose: () => void;
  children: ReactNode;
}) {
  return (
    <Dialog.Root open onOpenChange={(open) => (open ? undefined : onClose())}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-black/40" />
        <Dialog.Content
          aria-describedby={undefined}
          className="fixed inset-y-0 right-0 z-50 w-full max-w-xl overflow-y-auto border-l border-line bg-bg p-5 shadow-xl"
        >
          <div className="flex items-start justify-between gap-2">
            <Dialog.Title className="text-[16px] leading-6 font-semibold break-all">{title}</Dialog.Title>
            <Dialog.Close
              className="inline-flex size-8 shrink-0 items-center justify-center rounded-md hover:bg-muted"
              aria-label="Close"
            >
              <X aria-hidden="true" size={16} />
            </Dialog.Close>
          </div>
          {children}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

export function SmsPanel({ id, onClose }: { id: string; onClose: () => void }) {
  const sms = useQuery({
    queryKey: ['sms', 'one', id],
    queryFn: ({ signal }) => must(api.GET('/api/v1/sms/{id}', { params: { path: { id } }, signal })),
    refetchInterval: (query) => (smsMoving(query.state.data?.status ?? '') ? 3000 : false),
    retry: (count, error) => !isNotFound(error) && count < 2,
  });
  const m = sms.data;
  return (
    <SidePanel title={m ? `SMS to ${m.to}` : 'SMS'} onClose={onClose}>
      {sms.isPending ? (
        <Loading label="Loading the SMS" />
      ) : sms.isError ? (
        isNotFound(sms.error) ? (
          <p className="mt-3 text-[14px] text-fg-2">This SMS does not exist in this team.</p>
        ) : (
          <ErrorState error={sms.error} onRetry={() => void sms.refetch()} />
        )
      ) : (
        <div className="mt-3 space-y-4 text-[13px]">
          <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1.5">
            <dt className="text-fg-2">Status</dt>
            <dd>
              <MessagingBadge kind="sms" state={m!.status} />
            </dd>
            <dt className="text-fg-2">SMS id</dt>
            <dd>
              <CopyableId id={m!.id} what="SMS" />
            </dd>
            <dt className="text-fg-2">Recipient</dt>
            <dd className="font-mono text-[12px]">{m!.to}</dd>
            <dt className="text-fg-2">Segments</dt>
            <dd className="tabular">{m!.segments}</dd>
            <dt className="text-fg-2">Charge</dt>
            <dd className="tabular">
              {formatCharge(m!.charge)}
              {m!.status === 'rejected' ? <span className="text-fg-2"> · refunded</span> : null}
            </dd>
            <dt className="text-fg-2">Reason</dt>
            <dd className="break-words">
              {m!.reason ? (
                <>
                  {m!.reason.message} <code className="font-mono text-[12px] text-fg-2">{m!.reason.code}</code>
                </>
              ) : (
                '—'
              )}
            </dd>
            <dt className="text-fg-2">Created</dt>
            <dd>
              <Time value={m!.createdAt} mode="absolute" />
            </dd>
            <dt className="text-fg-2">Updated</dt>
            <dd>
              <Time value={m!.updatedAt} mode="absolute" />
            </dd>
          </dl>
          <CopyCurl path={`/api/v1/sms/${m!.id}`} />
          <section aria-label="JSON">
            <h3 className="mb-1 font-medium">JSON</h3>
            <MonoBlock text={JSON.stringify(m, null, 2)} copyLabel="Copy JSON" />
          </section>
        </div>
      )}
    </SidePanel>
  );
}
