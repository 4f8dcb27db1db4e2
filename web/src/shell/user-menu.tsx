// The user menu: who is signed in, theme, Local/UTC times, sign out.
import { useQueryClient } from '@tanstack/react-query';
import { CircleUser } from 'lucide-react';
import { DropdownMenu } from 'radix-ui';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { signOut, type Session } from '../api/session.ts';
import { setTimeZonePreference, useTimeZonePreference } from '../ui/time.tsx';
import { applyTheme, useTheme, type ThemeChoice } from './theme.ts';

const itemClass =
  'flex h-8 cursor-default items-center gap-2 rounded-md px-2 outline-none data-[highlighted]:bg-muted data-[state=checked]:font-medium';

export function UserMenu({ session }: { session: Session }) {
  const theme = useTheme();
  const zone = useTimeZonePreference();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const leave = async () => {
    try {
      await signOut();
      queryClient.clear();
      navigate('/sign-in');
    } catch (error) {
      toast.error(error instanceof Error ? error.message : 'Sign out failed');
    }
  };
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger
        aria-label="Account"
        className="flex size-8 items-center justify-center rounded-md text-fg-2 hover:bg-muted hover:text-fg"
      >
        <CircleUser aria-hidden="true" size={18} />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="end"
          sideOffset={4}
          className="z-50 min-w-56 rounded-lg border border-line bg-bg p-1 text-[13px] shadow-lg"
        >
          <DropdownMenu.Label className="truncate px-2 py-1 text-[12px] text-fg-2">
            {session.member.email}
          </DropdownMenu.Label>
          <DropdownMenu.Separator className="my-1 h-px bg-line" />
          <DropdownMenu.Label className="px-2 py-1 text-[12px] text-fg-2">Theme</DropdownMenu.Label>
          <DropdownMenu.RadioGroup value={theme} onValueChange={(value) => applyTheme(value as ThemeChoice)}>
            {(['system', 'light', 'dark'] as const).map((choice) => (
              <DropdownMenu.RadioItem key={choice} value={choice} className={itemClass}>
                <DropdownMenu.ItemIndicator>•</DropdownMenu.ItemIndicator>
                {choice === 'system' ? 'System' : choice === 'light' ? 'Light' : 'Dark'}
              </DropdownMenu.RadioItem>
            ))}
          </DropdownMenu.RadioGroup>
          <DropdownMenu.Separator className="my-1 h-px bg-line" />
          <DropdownMenu.Label className="px-2 py-1 text-[12px] text-fg-2">Times</DropdownMenu.Label>
          <DropdownMenu.RadioGroup
            value={zone}
            onValueChange={(value) => setTimeZonePreference(value as 'local' | 'utc')}
          >
            <DropdownMenu.RadioItem value="local" className={itemClass}>
              <DropdownMenu.ItemIndicator>•</DropdownMenu.ItemIndicator>
              Local
            </DropdownMenu.RadioItem>
            <DropdownMenu.RadioItem value="utc" className={itemClass}>
              <DropdownMenu.ItemIndicator>•</DropdownMenu.ItemIndicator>
              UTC
            </DropdownMenu.RadioItem>
          </DropdownMenu.RadioGroup>
          <DropdownMenu.Separator className="my-1 h-px bg-line" />
          <DropdownMenu.Item className={itemClass} onSelect={() => void leave()}>
            Sign out
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
