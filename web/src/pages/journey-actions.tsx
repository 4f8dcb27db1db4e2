// A journey's page actions, as its status allows (src/journeys/README.md, status transitions):
// Activate (a draft) or Resume (paused), Pause (active), Archive (final: active runs exit), Delete (a
// draft or an archived one), Edit details and Enrol contact. Each change is confirmed first.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { api, must } from '../api/client.ts';
import { Button } from '../ui/button.tsx';
import { ConfirmDialog } from '../ui/dialog.tsx';
import type { Journey } from './journey-data.tsx';
import { EditJourney, EnrolContact } from './journey-edit.tsx';

type Target = 'ACTIVE' | 'PAUSED' | 'ARCHIVED';
type Open = Target | 'delete' | 'edit' | 'enrol' | null;

export function JourneyActions({ journey: j }: { journey: Journey }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [open, setOpen] = useState<Open>(null);
  const path = { params: { path: { id: j.id } } };
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['journeys'] });
  const setStatus = useMutation({
    mutationFn: (status: Target) => must(api.POST('/api/v1/journeys/{id}/status', { ...path, body: { status } })),
    onSuccess: async (answer, status) => {
      queryClient.setQueryData(['journeys', 'one', j.id], answer);
      setOpen(null);
      toast(status === 'ACTIVE' ? 'Journey active' : status === 'PAUSED' ? 'Journey paused' : 'Journey archived');
      await refresh();
      await queryClient.invalidateQueries({ queryKey: ['journey-runs', j.id] });
    },
  });
  const remove = useMutation({
    mutationFn: () => must(api.DELETE('/api/v1/journeys/{id}', path)),
    onSuccess: async () => {
      toast('Journey deleted');
      queryClient.removeQueries({ queryKey: ['journeys', 'one', j.id] });
      await refresh();
      navigate('/journeys');
    },
  });
  const ask = (next: Open) => {
    setStatus.reset();
    remove.reset();
    setOpen(next);
  };
  const close = (isOpen: boolean) => (isOpen ? undefined : setOpen(null));

  const s = j.status;
  const canActivate = s === 'DRAFT' || s === 'PENDING_REVIEW' || s === 'PAUSED';
  const enrols = s === 'ACTIVE' || s === 'PAUSED';
  const reach =
    j.triggerType === 'API'
      ? 'Contacts your code enrols start at once: the first email goes out within moments.'
      : 'Each contact added to the book from now on joins and gets the first email within moments.';
  return (
    <>
      {s !== 'ARCHIVED' ? <Button onClick={() => ask('edit')}>Edit details</Button> : null}
      {enrols ? <Button onClick={() => ask('enrol')}>Enrol contact</Button> : null}
      {s !== 'ARCHIVED' ? <Button onClick={() => ask('ARCHIVED')}>Archive</Button> : null}
      {s === 'DRAFT' || s === 'ARCHIVED' ? (
        <Button variant="danger" onClick={() => ask('delete')}>
          Delete
        </Button>
      ) : null}
      {s === 'ACTIVE' ? <Button onClick={() => ask('PAUSED')}>Pause</Button> : null}
      {canActivate ? (
        <Button variant="primary" onClick={() => ask('ACTIVE')}>
          {s === 'PAUSED' ? 'Resume' : 'Activate'}
        </Button>
      ) : null}

      <ConfirmDialog
        tone="primary"
        open={open === 'ACTIVE'}
        onOpenChange={close}
        title={`${s === 'PAUSED' ? 'Resume' : 'Activate'} ${j.name}?`}
        description={
          s === 'PAUSED'
            ? 'Runs held while it was paused carry on at once, and their due emails go out.'
            : `${reach} Its steps can change again only while it is paused.`
        }
        confirmLabel={s === 'PAUSED' ? 'Resume journey' : 'Activate journey'}
        pending={setStatus.isPending}
        error={setStatus.error?.message}
        onConfirm={() => setStatus.mutate('ACTIVE')}
      />
      <ConfirmDialog
        tone="primary"
        open={open === 'PAUSED'}
        onOpenChange={close}
        title={`Pause ${j.name}?`}
        description={`Its ${j.stats.active} active runs hold where they are and no email goes out until you resume it. While paused, you can change its steps.`}
        confirmLabel="Pause journey"
        pending={setStatus.isPending}
        error={setStatus.error?.message}
        onConfirm={() => setStatus.mutate('PAUSED')}
      />
      <ConfirmDialog
        open={open === 'ARCHIVED'}
        onOpenChange={close}
        title={`Archive ${j.name}?`}
        description={`Its ${j.stats.active} active runs exit at once (Journey archived) and it never sends again. An archived journey cannot be activated.`}
        confirmLabel="Archive journey"
        pending={setStatus.isPending}
        error={setStatus.error?.message}
        onConfirm={() => setStatus.mutate('ARCHIVED')}
      />
      <ConfirmDialog
        open={open === 'delete'}
        onOpenChange={close}
        title={`Delete ${j.name}?`}
        description="The journey and the history of every run go. This cannot be undone."
        confirmLabel="Delete journey"
        typeToConfirm={j.name}
        pending={remove.isPending}
        error={remove.error?.message}
        onConfirm={() => remove.mutate()}
      />
      <EditJourney journey={j} open={open === 'edit'} onOpenChange={close} />
      <EnrolContact journey={j} open={open === 'enrol'} onOpenChange={close} />
    </>
  );
}
