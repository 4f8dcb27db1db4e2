// What a code says: the built-in email (plain text and a small accessible HTML part: real text, a
// language, no images, the code in a monospace block a screen reader reads as one word) and the
// contract's SMS text. Placeholders {{code}}, {{appName}}, {{expiresMinutes}} in a caller's subject.
import { escapeHtml } from '../platform/escape-html.ts';

export const DEFAULT_SUBJECT = '{{appName}} verification code: {{code}}';

export interface CodeMessage {
  code: string;
  appName: string;
  expiresMinutes: number;
}

export const expiresMinutesOf = (expiresInSeconds: number) => Math.ceil(expiresInSeconds / 60);

export function fillPlaceholders(text: string, m: CodeMessage): string {
  return text.replace(/\{\{\s*(code|appName|expiresMinutes)\s*\}\}/g, (_, name: keyof CodeMessage) => String(m[name]));
}

/** A template (subject and body) must show the code, or the user gets nothing to type. */
export const usesCode = (text: string) => /\{\{\s*code\s*\}\}/.test(text);

const minutes = (n: number) => `${n} minute${n === 1 ? '' : 's'}`;

export function builtInEmail(
  m: CodeMessage,
  subject = DEFAULT_SUBJECT,
): { subject: string; text: string; html: string } {
  const app = escapeHtml(m.appName);
  const text =
    `Your ${m.appName} verification code is:\n\n${m.code}\n\n` +
    `It expires in ${minutes(m.expiresMinutes)}. If you did not ask for this code, you can ignore this email.\n`;
  const html =
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${app} verification code</title></head>` +
    `<body style="font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:#1a1a1a;line-height:1.5;margin:0;padding:24px">` +
    `<main style="max-width:480px;margin:0 auto"><p>Your ${app} verification code is:</p>` +
    `<p style="font-family:ui-monospace,Menlo,Consolas,monospace;font-size:32px;font-weight:700;letter-spacing:6px;margin:16px 0" aria-label="${m.code.split('').join(' ')}">${m.code}</p>` +
    `<p>It expires in ${minutes(m.expiresMinutes)}.</p>` +
    `<p style="color:#555">If you did not ask for this code, you can ignore this email.</p></main></body></html>`;
  return { subject: fillPlaceholders(subject, m), text, html };
}

/** Contract: `<appName>: your code is <code>. It expires in <minutes> minutes.` */
export function smsText(m: CodeMessage): string {
  return `${m.appName}: your code is ${m.code}. It expires in ${m.expiresMinutes} minutes.`;
}
