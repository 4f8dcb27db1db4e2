// The small HTML pages of the public unsubscribe and confirmation links. No scripts, no outside
// resources; the confirmation forms post back to the page's own URL (no action attribute), so the
// pages work behind a proxy that mounts Herald under a path.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Counter, type Registry } from 'prom-client';
import { z } from 'zod';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Clock } from '../platform/clock.ts';
import type { Secrets } from '../platform/crypto.ts';
import { escapeHtml } from '../platform/escape-html.ts';

const STYLE =
  'body{margin:0;background:#f4f4f5;font-family:Arial,Helvetica,sans-serif;color:#111827}' +
  'main{max-width:480px;margin:64px auto;background:#fff;padding:32px;border-radius:8px}' +
  'h1{font-size:22px;margin:0 0 16px}p{line-height:1.5;margin:0 0 16px}' +
  'button{background:#2563eb;color:#fff;border:0;border-radius:6px;padding:12px 24px;font-size:16px;cursor:pointer}';

export interface Page {
  title: string;
  message: string;
  /** A form that POSTs back to this URL, with this button label. */
  button?: string;
  /** Hidden form fields. */
  fields?: Record<string, string>;
}

function pageHtml(page: Page): string {
  const fields = Object.entries(page.fields ?? {})
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('');
  const form =
    page.button === undefined
      ? ''
      : `<form method="post">${fields}<button type="submit">${escapeHtml(page.button)}</button></form>`;
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex">' +
    `<title>${escapeHtml(page.title)}</title><style>${STYLE}</style></head>` +
    `<body><main><h1>${escapeHtml(page.title)}</h1><p>${escapeHtml(page.message)}</p>${form}</main></body></html>`
  );
}

/**
 * Headers for every page: the token is in the URL, so no referrer leaves and nothing is cached; the
 * page may not be framed (a framed button could be clicked for the reader) and loads nothing.
 */
function pageHeaders(reply: FastifyReply): FastifyReply {
  return reply.headers({
    'cache-control': 'no-store',
    'referrer-policy': 'no-referrer',
    'x-robots-tag': 'noindex',
    'x-content-type-options': 'nosniff',
    'content-security-policy':
      "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  });
}

export function sendPage(reply: FastifyReply, status: number, page: Page): FastifyReply {
  return pageHeaders(reply).code(status).type('text/html; charset=utf-8').send(pageHtml(page));
}

export const invalidLinkPage: Page = {
  title: 'Link not valid',
  message: 'This link is not valid. Check that it was copied completely from the email.',
};

export type LinkDeps = { db: Kysely<Database>; clock: Clock; secrets: Secrets; metrics: Registry };

export const TokenParams = z.object({ token: z.string() });

/** RFC 8058 bodies are a few bytes; nothing larger is read. */
export const LINK_BODY_LIMIT = 8 * 1024;

export function linkActionCounter(registry: Registry): Counter<'action'> {
  const name = 'herald_contact_link_actions_total';
  return (
    (registry.getSingleMetric(name) as Counter<'action'> | undefined) ??
    new Counter({
      name,
      help: 'Public contact links acted on: unsubscribe_contact, unsubscribe_email, confirm',
      labelNames: ['action'] as const,
      registers: [registry],
    })
  );
}

/** A browser (the page's form) gets a page back; a mail provider's one-click POST gets plain text. */
export function wantsHtml(request: FastifyRequest): boolean {
  return (request.headers.accept ?? '').toLowerCase().includes('text/html');
}
