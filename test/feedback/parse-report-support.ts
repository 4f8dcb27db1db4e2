// Shared by the parse-report tests: the return path and original headers the samples carry, and the
// rule table's verdict on a parsed report's recipient.
import { classifyBounce } from '../../src/feedback/bounce-rules.ts';
import type { FeedbackReport } from '../../src/feedback/parse-report.ts';

export const RP = 'bounce+01jabc.aaaaaaaaaaaaaaaa@send.example.com';
export const ORIGINAL = `Message-ID: <01jabc@mail.herald.test>\r\nFrom: Shop <hello@example.com>\r\nTo: someone@example.org\r\nSubject: Your order\r\n`;
export const crlf = (text: string) => Buffer.from(text.replace(/\r?\n/g, '\r\n'));

export const verdictOf = (report: FeedbackReport, i = 0) => {
  const r = report.recipients[i]!;
  return classifyBounce({ action: r.action, status: r.status, diagnosticCode: r.diagnosticCode });
};
