// The team switcher: sets X-Herald-Team for every request and returns to Overview.
import { useQueryClient } from '@tanstack/react-query';
import { Check, ChevronsUpDown } from 'lucide-react';
import { DropdownMenu } from 'radix-ui';
import { useNavigate } from 'react-router';
import { requestContext } from '../api/client.ts';
import type { Session } from '../api/session.ts';
import { cn } from '../ui/cn.ts';

export function TeamSwitcher({ session, compact }: { session: Session; compact: boolean }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const switchTo = (teamId: number) => {
    if (teamId === session.team.id) return;
    requestContext.teamId = String(teamId);
    localStorage.setItem('herald-team', requestContext.teamId);
    queryClient.clear();
    navigate('/');
  };
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger
        aria-label={`Team: ${session.team.name}. Switch team`}
        className={cn(
          'flex h-9 w-full items-center gap-2 rounded-md border border-line px-2 text-left text-[13px] font-medium hover:bg-muted',
          compact && 'justify-center px-0',
        )}
      >
        <span
          aria-hidden="true"
          className="flex size-5 shrink-0 items-center justify-center rounded bg-accent text-[11px] text-white"
        >
          {session.team.name.slice(0, 1).toUpperCase()}
        </span>
        {compact ? null : (
          <>
            <span className="flex-1 truncate">{session.team.name}</span>
            <ChevronsUpDown aria-hidden="true" size={14} className="text-fg-2" />
          </>
        )}
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="start"
          sideOffset={4}
          className="z-50 min-w-56 rounded-lg border border-line bg-bg p-1 text-[13px] shadow-lg"
        >
          <DropdownMenu.Label className="px-2 py-1 text-[12px] text-fg-2">Teams</DropdownMenu.Label>
          {session.teams.map((team) => (
            <DropdownMenu.Item
              key={team.id}
              onSelect={() => switchTo(team.id)}
              className="flex h-8 cursor-default items-center gap-2 rounded-md px-2 outline-none data-[highlighted]:bg-muted"
            >
              <span className="flex-1 truncate">{team.name}</span>
              <span className="text-[12px] text-fg-2">{team.plan}</span>
              {team.id === session.team.id ? <Check aria-label="Current team" size={14} /> : null}
            </DropdownMenu.Item>
          ))}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
