// The Members tab's dialogs: invite (the API adds the member and mails a sign-in link), change a
// role, remove with a confirm (leaving, for one's own row). Each shows the API's field errors beside
// the field; only an owner makes or unmakes an owner, which the role dialog says before the API does.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { api, ApiFailure, must } from '../api/client.ts';
import type { components } from '../api/schema';
import { sessionKey, useSignedIn } from '../api/session.ts';
import { ConfirmDialog, Field, FormDialog, inputClass, splitFieldError } from '../ui/dialog.tsx';

export type Member = components['schemas']['TeamMember'];
type Role = Member['role'];
const roles: { role: Role; label: string }[] = [
  { role: 'MEMBER', label: 'Member' },
  { role: 'ADMIN', label: 'Admin' },
  { role: 'OWNER', label: 'Owner' },
];
const ROLE_HINT = 'Admins also manage keys, webhooks, billing and members; owners also make and remove owners.';
export const roleLabel = (role: string) => roles.find((r) => r.role === role)?.label ?? role;

/** The API names the field first on 400 and on its 403/409 member refusals ("role: only an owner…"). */
function fieldFailure(error: unknown, fields: string[]) {
  if (error instanceof ApiFailure && (error.status === 403 || error.status === 409)) {
    const match = /^([A-Za-z]\w*):\s*(.+)$/s.exec(error.message);
    if (match && fields.includes(match[1]!)) return { field: match[1]!, message: match[2]! };
  }
  return splitFieldError(error, fields);
}

/** After a change: the list, the audit log, and the usage meter (the Overview checklist's too). */
function useRefresh() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all(
      [['team-members'], ['audit-log'], ['billing', 'usage']].map((queryKey) =>
        queryClient.invalidateQueries({ queryKey }),
      ),
    );
}

function RoleSelect({ value, onChange, props }: { value: Role; onChange: (role: Role) => void; props: object }) {
  return (
    <select {...props} className={inputClass} value={value} onChange={(e) => onChange(e.target.value as Role)}>
      {roles.map((r) => (
        <option key={r.role} value={r.role}>
          {r.label}
        </option>
      ))}
    </select>
  );
}

export function InviteMember({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const refresh = useRefresh();
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [role, setRole] = useState<Role>('MEMBER');
  const invite = useMutation({
    mutationFn: () =>
      must(
        api.POST('/api/v1/team/members', {
          body: { email: email.trim(), role, ...(name.trim() ? { name: name.trim() } : {}) },
        }),
      ),
    onSuccess: async (member) => {
      onOpenChange(false);
      setEmail('');
      setName('');
      setRole('MEMBER');
      toast(`${member.email} was added; a sign-in link is on its way to them`);
      await refresh();
    },
  });
  const failure = fieldFailure(invite.error, ['email', 'name', 'role']);
  const fieldError = (field: string) => (failure?.field === field ? failure.message : undefined);
  return (
    <FormDialog
      open={open}
      onOpenChange={(next) => {
        if (!next) invite.reset();
        onOpenChange(next);
      }}
      title="Invite a member"
      description="They are added to the team at once and get an email with a link to sign in."
      submitLabel="Invite"
      pending={invite.isPending}
      error={failure && !failure.field ? failure.message : null}
      onSubmit={() => invite.mutate()}
    >
      <Field label="Email" error={fieldError('email')}>
        {(props) => (
          <input
            {...props}
            type="email"
            autoComplete="off"
            className={inputClass}
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
        )}
      </Field>
      <Field label="Name" hint="Optional, for people" error={fieldError('name')}>
        {(props) => <input {...props} className={inputClass} value={name} onChange={(e) => setName(e.target.value)} />}
      </Field>
      <Field label="Role" hint={ROLE_HINT} error={fieldError('role')}>
        {(props) => <RoleSelect props={props} value={role} onChange={setRole} />}
      </Field>
    </FormDialog>
  );
}

export function ChangeRole({ member, onClose }: { member: Member | null; onClose: () => void }) {
  const session = useSignedIn();
  const queryClient = useQueryClient();
  const refresh = useRefresh();
  const [role, setRole] = useState<Role>(member?.role ?? 'MEMBER');
  const change = useMutation({
    mutationFn: (memberId: number) =>
      must(api.PATCH('/api/v1/team/members/{memberId}', { params: { path: { memberId } }, body: { role } })),
    onSuccess: async (changed) => {
      onClose();
      toast(`${changed.email} is now ${roleLabel(changed.role).toLowerCase()}`);
      // One's own role is the session's too (what the shell and the other tabs allow).
      if (changed.id === session.member.id) await queryClient.invalidateQueries({ queryKey: sessionKey });
      await refresh();
    },
  });
  const failure = fieldFailure(change.error, ['role']);
  return (
    <FormDialog
      open={member !== null}
      onOpenChange={(open) => {
        if (!open) {
          change.reset();
          onClose();
        }
      }}
      title={`Change the role of ${member?.email ?? ''}`}
      description={
        session.team.role === 'OWNER' ? undefined : 'Only an owner can make someone an owner or change an owner.'
      }
      submitLabel="Save role"
      pending={change.isPending}
      error={failure && !failure.field ? failure.message : null}
      onSubmit={() => member && change.mutate(member.id)}
    >
      <Field label="Role" hint={ROLE_HINT} error={failure?.field === 'role' ? failure.message : undefined}>
        {(props) => <RoleSelect props={props} value={role} onChange={setRole} />}
      </Field>
    </FormDialog>
  );
}

export function RemoveMember({ member, onClose }: { member: Member | null; onClose: () => void }) {
  const session = useSignedIn();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const refresh = useRefresh();
  const self = member?.id === session.member.id;
  const remove = useMutation({
    mutationFn: (memberId: number) =>
      must(api.DELETE('/api/v1/team/members/{memberId}', { params: { path: { memberId } } })),
    onSuccess: async (_, memberId) => {
      onClose();
      if (memberId === session.member.id) {
        // This team is no longer one of ours: the session picks another (or signs out).
        await queryClient.invalidateQueries({ queryKey: sessionKey });
        navigate('/');
        return;
      }
      await refresh();
    },
  });
  return (
    <ConfirmDialog
      open={member !== null}
      onOpenChange={(open) => {
        if (!open) {
          remove.reset();
          onClose();
        }
      }}
      title={self ? `Leave ${session.team.name}?` : `Remove ${member?.email ?? ''}?`}
      description={
        self
          ? 'You will no longer see this team. An admin can invite you again.'
          : 'They can no longer sign in to this team. Keys they made keep working, without admin rights.'
      }
      confirmLabel={self ? 'Leave team' : 'Remove member'}
      pending={remove.isPending}
      error={remove.error?.message}
      onConfirm={() => member && remove.mutate(member.id)}
    />
  );
}
