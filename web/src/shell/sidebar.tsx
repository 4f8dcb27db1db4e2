// The sidebar: team switcher, Overview, the sections, then docs and version. Icons only between
// 768 and 1024 px (names as tooltips and labels); below 768 px the same list sits in a drawer.
import { BookOpen } from 'lucide-react';
import { NavLink } from 'react-router';
import type { Session } from '../api/session.ts';
import { apiPrefix } from '../api/client.ts';
import { prefetchPage } from '../routes.ts';
import { cn } from '../ui/cn.ts';
import { isAdmin, navSections, overviewItem, type NavItem } from './nav.ts';
import { TeamSwitcher } from './team-switcher.tsx';

function Item({ item, compact, onNavigate }: { item: NavItem; compact: boolean; onNavigate?: () => void }) {
  const Icon = item.icon;
  const prefetch = item.page ? () => prefetchPage(item.page!) : undefined;
  return (
    <li>
      <NavLink
        to={item.to}
        end={item.to === '/'}
        title={compact ? item.label : undefined}
        aria-label={compact ? item.label : undefined}
        onMouseEnter={prefetch}
        onFocus={prefetch}
        onClick={onNavigate}
        className={({ isActive }) =>
          cn(
            'flex h-8 items-center gap-2 rounded-md px-2 text-[13px] text-fg-2 hover:bg-muted hover:text-fg',
            isActive && !item.to.includes('?') && 'bg-muted font-medium text-fg',
            compact && 'justify-center',
          )
        }
      >
        <Icon aria-hidden="true" size={16} />
        {compact ? null : <span className="truncate">{item.label}</span>}
      </NavLink>
    </li>
  );
}

export function SidebarContent({
  session,
  compact = false,
  onNavigate,
}: {
  session: Session;
  compact?: boolean;
  onNavigate?: () => void;
}) {
  const admin = isAdmin(session.team.role);
  return (
    <div className="flex h-full flex-col">
      <div className="p-2">
        <TeamSwitcher session={session} compact={compact} />
      </div>
      <nav aria-label="Dashboard" className="flex-1 overflow-y-auto px-2 pb-4">
        <ul>
          <Item item={overviewItem} compact={compact} onNavigate={onNavigate} />
        </ul>
        {navSections.map((section) => (
          <div key={section.title} className="mt-4">
            {compact ? (
              <hr className="mx-2 mb-2 border-line" />
            ) : (
              <h2 className="mb-1 px-2 text-[12px] font-medium text-fg-2">{section.title}</h2>
            )}
            <ul>
              {section.items
                .filter((item) => !item.adminOnly || admin)
                .map((item) => (
                  <Item key={item.to} item={item} compact={compact} onNavigate={onNavigate} />
                ))}
            </ul>
          </div>
        ))}
      </nav>
      <div className="border-t border-line p-2 text-[12px] text-fg-2">
        <a
          href={`${apiPrefix}/docs`}
          className={cn(
            'flex h-8 items-center gap-2 rounded-md px-2 hover:bg-muted hover:text-fg',
            compact && 'justify-center',
          )}
          aria-label={compact ? 'API reference' : undefined}
          title={compact ? 'API reference' : undefined}
        >
          <BookOpen aria-hidden="true" size={16} />
          {compact ? null : 'API reference'}
        </a>
        {compact ? null : <p className="px-2 pt-1 tabular">Herald {session.instance.version}</p>}
      </div>
    </div>
  );
}
