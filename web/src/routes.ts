// Every page's chunk, loaded on first visit and prefetched when its link is hovered or focused (and
// the opened address's page at start). The entry holds only the shell, sign-in and Overview.
import { createElement, lazy, type ComponentType } from 'react';

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

/** Modules already here: their page renders at once, never through a Suspense fallback. */
const modules: Partial<Record<PageName, PageModule>> = {};
const loading = new Map<PageName, Promise<PageModule>>();

function load(name: PageName): Promise<PageModule> {
  let promise = loading.get(name);
  if (!promise) {
    promise = loaders[name]().then((module) => (modules[name] = module));
    promise.catch(() => loading.delete(name));
    loading.set(name, promise);
  }
  return promise;
}

export function prefetchPage(name: PageName): void {
  void load(name).catch(() => undefined);
}

/**
 * React.lazy until the module is here, then the component itself: React holds a lazy page's reveal
 * back at least 300 ms (its Suspense throttle), which was most of the email log's first paint.
 */
function page(name: PageName): ComponentType {
  const Lazy = lazy(() => load(name));
  return function Page() {
    const module = modules[name];
    return module ? createElement(module.default) : createElement(Lazy);
  };
}

/** The page of the address the app opens at: its chunk is fetched beside the session read. */
const FIRST: [RegExp, PageName][] = [
  [/^\/emails\/?$/, 'emails'],
  [/^\/emails\/[^/]+$/, 'emailDetail'],
  [/^\/domains\/?$/, 'domains'],
  [/^\/domains\/[^/]+$/, 'domainDetail'],
  [/^\/webhooks\/?$/, 'webhooks'],
  [/^\/webhooks\/[^/]+$/, 'webhookDetail'],
  [/^\/team\/?$/, 'team'],
  [/^\/templates\/?$/, 'templates'],
  [/^\/templates\/[^/]+$/, 'templateDetail'],
  [/^\/contacts\/?$/, 'contacts'],
  [/^\/contacts\/[^/]+$/, 'contactBook'],
  [/^\/segments\/?$/, 'segments'],
  [/^\/segments\/[^/]+$/, 'segmentDetail'],
  [/^\/campaigns\/?$/, 'campaigns'],
  [/^\/campaigns\/[^/]+$/, 'campaignDetail'],
  [/^\/journeys\/?$/, 'journeys'],
  [/^\/journeys\/[^/]+$/, 'journeyDetail'],
  [/^\/sms\/?$/, 'sms'],
  [/^\/codes\/?$/, 'codes'],
  [/^\/inboxes\/?$/, 'inboxes'],
  [/^\/inboxes\/[^/]+$/, 'inboxDetail'],
  [/^\/billing\/?$/, 'billing'],
];
const first = FIRST.find(([pattern]) => pattern.test(location.pathname))?.[1];

/**
 * Settles once the opened address's page module is here (or failed to load): main.tsx renders after
 * it, so that the first render has the page itself rather than a Suspense fallback, whose reveal
 * React would hold back 300 ms. The chunk is small and fetched beside the entry, which is not.
 */
export const firstPageLoaded: Promise<unknown> = first ? load(first).catch(() => undefined) : Promise.resolve();

export const pages = Object.fromEntries(
  (Object.keys(loaders) as PageName[]).map((name) => [name, page(name)]),
) as Record<PageName, ComponentType>;
