// Members: Name, Email, Role, Added, with the plan's seats; invite, change a role and remove through
// the dialogs of team-members-dialogs.tsx. A member who is not an admin sees the API's 403.
import { useQuery } from '@tanstack/react-query';
import { ChevronDown } from 'lucide-react';
import { useState } from 'react';
import { api, must } from '../api/client.ts';
import { useSignedIn } from '../api/session.ts';
import { Button } from '../ui/button.tsx';
import { EmptyState, ErrorState } from '../ui/states.tsx';
import { Tag } from '../ui/status-badge.tsx';
import { SkeletonRows, Table, Td, Th } from '../ui/table.tsx';
import { Time } from '../ui/time.tsx';
import { ChangeRole, InviteMember, RemoveMember, roleLabel, type Member } from './team-members-dialogs.tsx';

export function TeamMembers() {
  const session = useSignedIn();
  const [inviting, setInviting] = useState(false);
  const [changing, setChanging] = useState<Member | null>(null);
  const [removing, setRemoving] = useState<Member | null>(null);
  const members = useQuery({
    queryKey: ['team-members'],
    queryFn: ({ signal }) => must(api.GET('/api/v1/team/members', { signal })),
  });
  const usage = useQuery({
    queryKey: ['billing', 'usage'],
    queryFn: ({ signal }) => must(api.GET('/api/v1/billing/usage', { signal })),
    retry: false,
  });
  if (members.isError) return <ErrorState error={members.error} onRetry={() => void members.refetch()} />;
  const seats = usage.data?.resources.teamMembers;
  const invite = (
    <Button variant="primary" onClick={() => setInviting(true)}>
      Invite member
    </Button>
  );
  return (
    <>
      {members.data?.data.length === 0 ? (
        <EmptyState title="No members" action={invite}>
          Members sign in to this dashboard with their email address.
        </EmptyState>
      ) : (
        <>
          <div className="mb-3 flex flex-wrap items-center justify-end gap-3">
            {seats ? (
              <p className="text-[13px] text-fg-2 tabular">
                {seats.unlimited ? `${seats.used} members` : `${seats.used} of ${seats.limit} members on this plan`}
              </p>
            ) : null}
            {invite}
          </div>
          <Table label="Members">
            <colgroup>
              <col className="hidden w-[180px] sm:table-column" />
              <col />
              <col className="w-[128px]" />
              <col className="hidden w-[130px] md:table-column" />
              <col className="w-[104px]" />
            </colgroup>
            <thead>
              <tr>
                <Th className="hidden sm:table-cell">Name</Th>
                <Th>Email</Th>
                <Th>Role</Th>
                <Th className="hidden md:table-cell">Added</Th>
                <Th>
                  <span className="sr-only">Actions</span>
                </Th>
              </tr>
            </thead>
            <tbody>
              {members.isPending ? (
                <SkeletonRows rows={3} columns={5} />
              ) : (
                members.data.data.map((member) => {
                  const self = member.id === session.member.id;
                  return (
                    <tr key={member.id}>
                      <Td className="hidden sm:table-cell">{member.name ?? <span className="text-fg-2">—</span>}</Td>
                      <Td title={member.email}>
                        {/* Before the address, so that it shows when a narrow screen cuts the address short. */}
                        {self ? (
                          <>
                            <Tag>You</Tag>{' '}
                          </>
                        ) : null}
                        {member.email}
                      </Td>
                      <Td>
                        <Button
                          variant="ghost"
                          className="-ml-3"
                          aria-label={`Role of ${member.email}: ${roleLabel(member.role)}. Change`}
                          onClick={() => setChanging(member)}
                        >
                          {roleLabel(member.role)}
                          <ChevronDown aria-hidden="true" size={14} />
                        </Button>
                      </Td>
                      <Td className="hidden text-fg-2 md:table-cell">
                        <Time value={member.createdAt} />
                      </Td>
                      <Td className="text-right">
                        <Button
                          variant="ghost"
                          aria-label={self ? 'Leave team' : `Remove ${member.email}`}
                          onClick={() => setRemoving(member)}
                        >
                          {self ? 'Leave' : 'Remove'}
                        </Button>
                      </Td>
                    </tr>
                  );
                })
              )}
            </tbody>
          </Table>
        </>
      )}
      <InviteMember open={inviting} onOpenChange={setInviting} />
      {/* Keyed by the member, so the dialog starts from their current role each time. */}
      <ChangeRole key={changing?.id ?? 'none'} member={changing} onClose={() => setChanging(null)} />
      <RemoveMember member={removing} onClose={() => setRemoving(null)} />
    </>
  );
}
