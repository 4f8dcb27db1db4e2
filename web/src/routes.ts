// Every page's chunk, loaded on first visit and prefetched when its link is hovered or focused.
// The entry holds only the shell, sign-in and Overview; every other page is its own chunk.
import { lazy, type ComponentType } from 'react';

type PageModule = { default: ComponentType };
const loaders = {
  emails: () => import('./pages/emails.tsx'),
  emailDetail: () => import('./pages/email-detail.tsx'),
  domains: () => import('./pages/domains.tsx'),
  domainDetail: () => import('./pages/domain-detail.tsx'),
  webhooks: () => import('./pages/webhooks.tsx'),
  webhookDetail: () => import('./pages/webhook-detail.tsx'),
  team: () => import('./pages/team.tsx'),
  comingNext: () => import('./pages/coming-next.tsx'),
} satisfies Record<string, () => Promise<PageModule>>;

export type PageName = keyof typeof loaders;

const loaded = new Set<PageName>();
export function prefetchPage(name: PageName): void {
  if (loaded.has(name)) return;
  loaded.add(name);
  void loaders[name]().catch(() => loaded.delete(name));
}

export const pages = {
  emails: lazy(loaders.emails),
  emailDetail: lazy(loaders.emailDetail),
  domains: lazy(loaders.domains),
  domainDetail: lazy(loaders.domainDetail),
  webhooks: lazy(loaders.webhooks),
  webhookDetail: lazy(loaders.webhookDetail),
  team: lazy(loaders.team),
  comingNext: lazy(loaders.comingNext),
} satisfies Record<PageName, unknown>;
