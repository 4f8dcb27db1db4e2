// The dashboard page's Content-Security-Policy. Scripts: this origin's files and the inline theme
// script, allowed by its hash (read from the built index.html, so a rebuild never needs an edit here).
// Styles allow 'unsafe-inline' because the email preview is a srcdoc iframe, which inherits this
// policy, and mail is styled inline; the preview adds its own stricter policy (no remote images until
// "Load images") inside the frame, which is sandboxed without scripts.
import { createHash } from 'node:crypto';

/** The sha256 source of every inline (no src) script of an HTML page. */
export function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = [];
  for (const match of html.matchAll(/<script(\s[^>]*)?>([\s\S]*?)<\/script>/gi)) {
    if (/\ssrc\s*=/i.test(match[1] ?? '')) continue;
    hashes.push(`'sha256-${createHash('sha256').update(match[2]!, 'utf8').digest('base64')}'`);
  }
  return hashes;
}

export function dashboardCsp(scriptHashes: string[]): string {
  return [
    "default-src 'self'",
    `script-src 'self' ${scriptHashes.join(' ')}`.trim(),
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: https:",
    "font-src 'self'",
    "connect-src 'self'",
    "frame-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}
