// The ⌘K / Ctrl+K palette: the sidebar's pages filtered as you type (an APG combobox over a listbox),
// arrows and Enter to go, Escape to close; a pasted id (em_…, tpl_…) offers to open its object.
// "/" outside a field focuses the page's search box when it has one. No dependency: a Radix dialog.
import { Search } from 'lucide-react';
import { Dialog } from 'radix-ui';
import { useEffect, useId, useMemo, useState, type KeyboardEvent as ReactKeyboardEvent } from 'react';
import { useNavigate } from 'react-router';
import type { Session } from '../api/session.ts';
import { cn } from '../ui/cn.ts';
import { isAdmin, navSections, overviewItem } from './nav.ts';

interface Command {
  label: string;
  hint: string;
  to: string;
}

/** Id prefixes (src/*: newId) and the page each object has. */
const objectPages: { prefix: string; what: string; path: string }[] = [
  { prefix: 'em_', what: 'email', path: '/emails/' },
  { prefix: 'tpl_', what: 'template', path: '/templates/' },
  { prefix: 'wh_', what: 'webhook', path: '/webhooks/' },
  { prefix: 'cmp_', what: 'campaign', path: '/campaigns/' },
  { prefix: 'jrn_', what: 'journey', path: '/journeys/' },
  { prefix: 'inbox_', what: 'inbox', path: '/inboxes/' },
  { prefix: 'cb_', what: 'contact book', path: '/contacts/' },
];

const isMac = /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);
export const paletteShortcut = isMac ? '⌘K' : 'Ctrl K';

function isTyping(target: EventTarget | null): boolean {
  const element = target as HTMLElement | null;
  return !!element && (element.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(element.tagName));
}

function pageCommands(session: Session): Command[] {
  const admin = isAdmin(session.team.role);
  return [
    { label: overviewItem.label, hint: 'Page', to: overviewItem.to },
    ...navSections.flatMap((section) =>
      section.items
        .filter((item) => !item.adminOnly || admin)
        .map((item) => ({ label: item.label, hint: section.title, to: item.to })),
    ),
  ];
}

/** Pasted ids first, then pages whose name starts with the text, then those that contain it. */
function matching(commands: Command[], query: string): Command[] {
  const text = query.trim();
  const q = text.toLowerCase();
  if (!q) return commands;
  const object = objectPages.find((o) => text.startsWith(o.prefix) && /^[\w-]+$/.test(text));
  const found: Command[] = object
    ? [{ label: `Open ${object.what} ${text}`, hint: 'Id', to: `${object.path}${encodeURIComponent(text)}` }]
    : [];
  const starts = commands.filter((c) => c.label.toLowerCase().startsWith(q));
  const contains = commands.filter((c) => !starts.includes(c) && `${c.label} ${c.hint}`.toLowerCase().includes(q));
  return [...found, ...starts, ...contains];
}

function PaletteBody({ session, onGo }: { session: Session; onGo: (to: string) => void }) {
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const listId = useId();
  const commands = useMemo(() => pageCommands(session), [session]);
  const results = matching(commands, query);
  const current = Math.min(active, Math.max(results.length - 1, 0));
  const optionId = (index: number) => `${listId}-option-${index}`;

  const onKeyDown = (event: ReactKeyboardEvent<HTMLInputElement>) => {
    const last = results.length - 1;
    if (event.key === 'ArrowDown') setActive(current >= last ? 0 : current + 1);
    else if (event.key === 'ArrowUp') setActive(current <= 0 ? last : current - 1);
    else if (event.key === 'Home') setActive(0);
    else if (event.key === 'End') setActive(last);
    else if (event.key === 'Enter' && results[current]) onGo(results[current].to);
    else return;
    event.preventDefault();
  };
  useEffect(() => {
    document.getElementById(optionId(current))?.scrollIntoView({ block: 'nearest' });
  });

  return (
    <>
      <div className="flex items-center gap-2 border-b border-line px-3">
        <Search aria-hidden="true" size={16} className="text-fg-2" />
        <input
          autoFocus
          role="combobox"
          aria-label="Go to"
          aria-expanded={results.length > 0}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={results.length ? optionId(current) : undefined}
          placeholder="Go to a page, or paste an id…"
          className="h-11 w-full bg-transparent text-[14px] outline-none placeholder:text-fg-2"
          value={query}
          onChange={(e) => {
            setQuery(e.target.value);
            setActive(0);
          }}
          onKeyDown={onKeyDown}
        />
      </div>
      {results.length === 0 ? (
        <p role="status" className="p-4 text-[13px] text-fg-2">
          No page matches “{query.trim()}”.
        </p>
      ) : null}
      <ul id={listId} role="listbox" aria-label="Pages" className="max-h-[320px] overflow-y-auto p-1">
        {results.map((command, index) => (
          <li
            key={`${command.to}-${command.label}`}
            id={optionId(index)}
            role="option"
            aria-selected={index === current}
            onMouseMove={() => setActive(index)}
            onClick={() => onGo(command.to)}
            className={cn(
              'flex h-9 cursor-pointer items-center justify-between gap-3 rounded-md px-2 text-[13px]',
              index === current && 'bg-muted',
            )}
          >
            <span className="truncate">{command.label}</span>
            <span className="shrink-0 text-[12px] text-fg-2">{command.hint}</span>
          </li>
        ))}
      </ul>
    </>
  );
}

export function CommandPalette({ session }: { session: Session }) {
  const [open, setOpen] = useState(false);
  const navigate = useNavigate();
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.metaKey || event.ctrlKey) && !event.altKey && event.key.toLowerCase() === 'k') {
        event.preventDefault();
        setOpen((was) => !was);
      } else if (event.key === '/' && !event.metaKey && !event.ctrlKey && !event.altKey && !isTyping(event.target)) {
        const box = document.querySelector<HTMLElement>('main input[type="search"], main [role="searchbox"]');
        if (box) {
          event.preventDefault();
          box.focus();
        }
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Trigger
        title={`Go to a page (${paletteShortcut})`}
        className="flex h-8 items-center gap-2 rounded-md border border-control px-2 text-[13px] text-fg-2 hover:bg-muted hover:text-fg"
      >
        <Search aria-hidden="true" size={14} />
        <span className="sr-only sm:not-sr-only">Search</span>
        <kbd aria-hidden="true" className="hidden font-sans text-[12px] sm:inline">
          {paletteShortcut}
        </kbd>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-black/40" />
        <Dialog.Content className="fixed top-[12vh] left-1/2 z-50 w-[calc(100vw-32px)] max-w-lg -translate-x-1/2 overflow-hidden rounded-lg border border-line bg-bg shadow-xl">
          <Dialog.Title className="sr-only">Command palette</Dialog.Title>
          <Dialog.Description className="sr-only">
            Type to filter the pages; arrow keys choose, Enter goes, Escape closes.
          </Dialog.Description>
          <PaletteBody
            session={session}
            onGo={(to) => {
              setOpen(false);
              navigate(to);
            }}
          />
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
