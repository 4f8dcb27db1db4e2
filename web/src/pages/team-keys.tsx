// API keys: Name, Kind, Domain limit, Created by, Last used (flagged when unused for 30 days);
// create → the full key once, with copy and a ready curl; revoke with a type-the-name confirm.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, must } from '../api/client.ts';
import type { components } from '../api/schema';
import { useSignedIn } from '../api/session.ts';
import { useDomains } from '../lib/use-domains.ts';
import { Button } from '../ui/button.tsx';
import { curlFor } from '../ui/copy-curl.tsx';
import { ConfirmDialog, Field, FormDialog, inputClass, SecretDialog, splitFieldError } from '../ui/dialog.tsx';
import { MonoBlock } from '../ui/mono-block.tsx';
import { EmptyState, ErrorState } from '../ui/states.tsx';
import { Tag } from '../ui/status-badge.tsx';
import { SkeletonRows, Table, Td, Th } from '../ui/table.tsx';
import { formatRelative, Time } from '../ui/time.tsx';

type ApiKey = components['schemas']['ApiKey'];
type Kind = ApiKey['kind'];
const kinds: { kind: Kind; label: string }[] = [
  { kind: 'full', label: 'Full access' },
  { kind: 'sending', label: 'Sending access' },
  { kind: 'readonly', label: 'Read only' },
  { kind: 'sandbox', label: 'Sandbox' },
  { kind: 'live_ai', label: 'Live AI' },
];
const kindLabel = (kind: string) => kinds.find((k) => k.kind === kind)?.label ?? kind;
const keyName = (key: ApiKey) => key.name ?? key.hint;
const MONTH = 30 * 24 * 3600_000;
const unused = (key: ApiKey) => Date.now() - new Date(key.lastUsedAt ?? key.createdAt).getTime() > MONTH;

function CreateKey({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const session = useSignedIn();
  const domains = useDomains();
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [kind, setKind] = useState<Kind>('sending');
  const [domainId, setDomainId] = useState('');
  const [key, setKey] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: () =>
      must(
        api.POST('/api/v1/api-keys', {
          body: {
            kind,
            ...(name.trim() ? { name: name.trim() } : {}),
            ...(domainId ? { domainId: Number(domainId) } : {}),
          },
        }),
      ),
    onSuccess: async (created) => {
      onOpenChange(false);
      setName('');
      setKey(created.key);
      await queryClient.invalidateQueries({ queryKey: ['api-keys'] });
      await queryClient.invalidateQueries({ queryKey: ['audit-log'] });
    },
  });
  const failure = splitFieldError(create.error, ['name', 'kind', 'domainId']);
  const fieldError = (field: string) => (failure?.field === field ? failure.message : undefined);
  const curl = key ? curlFor(session.instance.publicUrl, '/api/v1/whoami').replace('$HERALD_API_KEY', key) : '';
  return (
    <>
      <FormDialog
        open={open}
        onOpenChange={(next) => {
          if (!next) create.reset();
          onOpenChange(next);
        }}
        title="Create an API key"
        submitLabel="Create key"
        pending={create.isPending}
        error={failure && !failure.field ? failure.message : null}
        onSubmit={() => create.mutate()}
      >
        <Field label="Name" hint="For people: where the key is used, e.g. prod-web" error={fieldError('name')}>
          {(props) => (
            <input {...props} className={inputClass} value={name} onChange={(e) => setName(e.target.value)} />
          )}
        </Field>
        <Field label="Kind" error={fieldError('kind')}>
          {(props) => (
            <select {...props} className={inputClass} value={kind} onChange={(e) => setKind(e.target.value as Kind)}>
              {kinds.map((k) => (
                <option key={k.kind} value={k.kind}>
                  {k.label}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Domain limit" error={fieldError('domainId')}>
          {(props) => (
            <select {...props} className={inputClass} value={domainId} onChange={(e) => setDomainId(e.target.value)}>
              <option value="">Every domain</option>
              {domains.data?.map((d) => (
                <option key={d.id} value={d.id}>
                  {d.name}
                </option>
              ))}
            </select>
          )}
        </Field>
      </FormDialog>
      <SecretDialog title="Your new API key" what="API key" secret={key} onClose={() => setKey(null)}>
        <div>
          <p className="mb-1 text-[13px] font-medium">Try it</p>
          <MonoBlock text={curl} copyLabel="Copy curl with the key" />
        </div>
      </SecretDialog>
    </>
  );
}

function RevokeKey({ apiKey, onClose }: { apiKey: ApiKey | null; onClose: () => void }) {
  const queryClient = useQueryClient();
  const revoke = useMutation({
    mutationFn: (keyId: string) => must(api.DELETE('/api/v1/api-keys/{keyId}', { params: { path: { keyId } } })),
    onSuccess: async () => {
      onClose();
      await queryClient.invalidateQueries({ queryKey: ['api-keys'] });
      await queryClient.invalidateQueries({ queryKey: ['audit-log'] });
    },
  });
  const name = apiKey ? keyName(apiKey) : '';
  const lastUsed = apiKey?.lastUsedAt ? ` Last used ${formatRelative(new Date(apiKey.lastUsedAt))}.` : ' Never used.';
  return (
    <ConfirmDialog
      open={apiKey !== null}
      onOpenChange={(open) => {
        if (!open) {
          revoke.reset();
          onClose();
        }
      }}
      title={`Revoke key ${name}?`}
      description={`Requests using it fail at once.${lastUsed}`}
      confirmLabel="Revoke key"
      typeToConfirm={name}
      pending={revoke.isPending}
      error={revoke.error?.message}
      onConfirm={() => apiKey && revoke.mutate(apiKey.id)}
    />
  );
}

export function TeamKeys() {
  const session = useSignedIn();
  const domains = useDomains();
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const keys = useQuery({
    queryKey: ['api-keys'],
    queryFn: ({ signal }) => must(api.GET('/api/v1/api-keys', { signal })),
  });
  const create = (
    <Button variant="primary" onClick={() => setCreating(true)}>
      Create API key
    </Button>
  );
  const createdBy = (id: number | null) =>
    id === null ? 'Operator' : id === session.member.id ? 'You' : `Member ${id}`;
  const domainName = (id: number | null) =>
    id === null ? 'Every domain' : (domains.data?.find((d) => d.id === id)?.name ?? `Domain ${id}`);
  if (keys.isError) return <ErrorState error={keys.error} onRetry={() => void keys.refetch()} />;
  return (
    <>
      {keys.data?.data.length === 0 ? (
        <EmptyState title="No API keys" action={create}>
          A key lets your code call Herald's API. It is shown once, when you create it.
        </EmptyState>
      ) : (
        <>
          <div className="mb-3 flex justify-end">{create}</div>
          <Table label="API keys">
            <colgroup>
              <col />
              <col className="hidden w-[130px] sm:table-column" />
              <col className="hidden w-[150px] md:table-column" />
              <col className="hidden w-[110px] md:table-column" />
              <col className="w-[130px]" />
              <col className="w-[90px]" />
            </colgroup>
            <thead>
              <tr>
                <Th>Name</Th>
                <Th className="hidden sm:table-cell">Kind</Th>
                <Th className="hidden md:table-cell">Domain limit</Th>
                <Th className="hidden md:table-cell">Created by</Th>
                <Th>Last used</Th>
                <Th>
                  <span className="sr-only">Actions</span>
                </Th>
              </tr>
            </thead>
            <tbody>
              {keys.isPending ? (
                <SkeletonRows rows={3} columns={6} />
              ) : (
                keys.data.data.map((key) => (
                  <tr key={key.id}>
                    <Td>
                      <span className="font-medium">{key.name ?? 'Unnamed'}</span>{' '}
                      <code className="font-mono text-[12px] text-fg-2">{key.hint}</code>
                    </Td>
                    <Td className="hidden sm:table-cell">{kindLabel(key.kind)}</Td>
                    <Td className="hidden text-fg-2 md:table-cell">{domainName(key.domainId)}</Td>
                    <Td className="hidden text-fg-2 md:table-cell">{createdBy(key.createdBy)}</Td>
                    <Td className="text-fg-2">
                      {key.lastUsedAt ? <Time value={key.lastUsedAt} /> : 'Never'}
                      {unused(key) ? (
                        <>
                          {' '}
                          <Tag tone="warning">Unused 30 d</Tag>
                        </>
                      ) : null}
                    </Td>
                    <Td className="text-right">
                      <Button
                        variant="ghost"
                        aria-label={`Revoke key ${keyName(key)}`}
                        onClick={() => setRevoking(key)}
                      >
                        Revoke
                      </Button>
                    </Td>
                  </tr>
                ))
              )}
            </tbody>
          </Table>
        </>
      )}
      <CreateKey open={creating} onOpenChange={setCreating} />
      <RevokeKey apiKey={revoking} onClose={() => setRevoking(null)} />
    </>
  );
}
