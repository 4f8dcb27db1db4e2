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
  templates: () => import('./pages/templates.tsx'),
  templateDetail: () => import('./pages/template-detail.tsx'),
  contacts: () => import('./pages/contacts.tsx'),
  contactBook: () => import('./pages/contact-book.tsx'),
  segments: () => import('./pages/segments.tsx'),
  segmentDetail: () => import('./pages/segment-detail.tsx'),
  campaigns: () => import('./pages/campaigns.tsx'),
  campaignDetail: () => import('./pages/campaign-detail.tsx'),
  journeys: () => import('./pages/journeys.tsx'),
  journeyDetail: () => import('./pages/journey-detail.tsx'),
  sms: () => import('./pages/sms.tsx'),
  codes: () => import('./pages/codes.tsx'),
  inboxes: () => import('./pages/inboxes.tsx'),
  inboxDetail: () => import('./pages/inbox-detail.tsx'),
  billing: () => import('./pages/billing.tsx'),
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
  templates: lazy(loaders.templates),
  templateDetail: lazy(loaders.templateDetail),
  contacts: lazy(loaders.contacts),
  contactBook: lazy(loaders.contactBook),
  segments: lazy(loaders.segments),
  segmentDetail: lazy(loaders.segmentDetail),
  campaigns: lazy(loaders.campaigns),
  campaignDetail: lazy(loaders.campaignDetail),
  journeys: lazy(loaders.journeys),
  journeyDetail: lazy(loaders.journeyDetail),
  sms: lazy(loaders.sms),
  codes: lazy(loaders.codes),
  inboxes: lazy(loaders.inboxes),
  inboxDetail: lazy(loaders.inboxDetail),
  billing: lazy(loaders.billing),
} satisfies Record<PageName, unknown>;
