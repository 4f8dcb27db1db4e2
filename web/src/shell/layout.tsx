// The app shell: sidebar (232 px; icons only from 768 to 1024 px; a drawer below 768 px), a top bar
// with the menu button and the user menu, the instance banner, and the page.
import { Menu, X } from 'lucide-react';
import { Dialog } from 'radix-ui';
import { Suspense, useEffect, useState } from 'react';
import { Navigate, Outlet, useLocation, useNavigate } from 'react-router';
import { setUnauthorizedHandler } from '../api/client.ts';
import { useSession, type Session } from '../api/session.ts';
import { ErrorState, Loading } from '../ui/states.tsx';
import { CommandPalette } from './command-palette.tsx';
import { SidebarContent } from './sidebar.tsx';
import { UserMenu } from './user-menu.tsx';

function InstanceBanner({ session }: { session: Session }) {
  if (session.instance.mailTransport !== 'log') return null;
  return (
    <div
      role="note"
      className="border-b border-line bg-[var(--tone-warning-bg)] px-4 py-1 text-[12px] text-[var(--tone-warning)]"
    >
      Mail is written to the outbox, not delivered (HERALD_MAIL_TRANSPORT=log).
    </div>
  );
}

function Drawer({ session }: { session: Session }) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Trigger
        aria-label="Open navigation"
        className="flex size-8 items-center justify-center rounded-md hover:bg-muted md:hidden"
      >
        <Menu aria-hidden="true" size={18} />
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-black/40" />
        <Dialog.Content className="fixed inset-y-0 left-0 z-50 w-[264px] border-r border-line bg-surface shadow-xl">
          <Dialog.Title className="sr-only">Navigation</Dialog.Title>
          <Dialog.Description className="sr-only">Pages of the dashboard</Dialog.Description>
          <Dialog.Close
            aria-label="Close navigation"
            className="absolute top-2 right-2 flex size-8 items-center justify-center rounded-md hover:bg-muted"
          >
            <X aria-hidden="true" size={16} />
          </Dialog.Close>
          <div className="h-full pt-10">
            <SidebarContent session={session} onNavigate={() => setOpen(false)} />
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

export function Shell() {
  const session = useSession();
  const location = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    setUnauthorizedHandler(() => {
      const next = location.pathname + location.search;
      navigate(`/sign-in?next=${encodeURIComponent(next)}`, { replace: true });
    });
  }, [location, navigate]);

  if (session.isPending) return <Loading label="Loading your session" />;
  // A failed refetch (the plan changed, the network blinked) keeps the page it had: only a session
  // never read shows the error.
  if (session.isError && session.data === undefined)
    return (
      <main className="p-6">
        <h1 className="mb-4 text-[20px] font-semibold">Herald</h1>
        <ErrorState error={session.error} onRetry={() => void session.refetch()} />
      </main>
    );
  if (!session.data) {
    const next = location.pathname + location.search;
    return <Navigate replace to={next === '/' ? '/sign-in' : `/sign-in?next=${encodeURIComponent(next)}`} />;
  }
  const data = session.data;
  return (
    <div className="flex min-h-screen">
      <aside className="sticky top-0 hidden h-screen w-14 shrink-0 border-r border-line bg-surface md:block lg:hidden">
        <SidebarContent session={data} compact />
      </aside>
      <aside className="sticky top-0 hidden h-screen w-[232px] shrink-0 border-r border-line bg-surface lg:block">
        <SidebarContent session={data} />
      </aside>
      <div className="flex min-w-0 flex-1 flex-col">
        <InstanceBanner session={data} />
        <header className="flex h-12 items-center gap-2 border-b border-line px-4 md:px-6">
          <Drawer session={data} />
          <span className="truncate text-[13px] text-fg-2">{data.team.name}</span>
          <div className="ml-auto flex items-center gap-2">
            <CommandPalette session={data} />
            <UserMenu session={data} />
          </div>
        </header>
        <main className="min-w-0 flex-1 p-4 md:p-6">
          <Suspense fallback={<Loading />}>
            <Outlet context={data} />
          </Suspense>
        </main>
      </div>
    </div>
  );
}
