// strippedText: the new part of a reply, without the quoted history and the signature (contract:
// Inbound message). email-reply-parser (a port of GitHub's) cuts at the quote headers of Gmail
// ("On … wrote:"), Outlook ("From: … Sent: …", "-----Original Message-----"), Apple Mail
// ("On …, at …, … wrote:"), `>` quoting and "-- " signatures (test/inboxes/sanitize-and-strip.test.ts).
//
// Its quote-header patterns (`On\s.+\s.+\n?wrote:` and the like) backtrack quadratically on long
// lines, and decoded text/plain often has paragraphs of thousands of characters on one line (quoted-
// printable soft breaks). A quote header or signature is never that long, so each long line goes to
// the parser as a short stand-in (its leading `>` markers kept) and comes back afterwards. Its
// character-by-character string reversal is replaced by reply-parser-patch.ts.
import EmailReplyParser from 'email-reply-parser';
import './reply-parser-patch.ts';

const parser = new EmailReplyParser();
/** Longer lines are never quote headers or signatures (those are a line or two of a few words). */
const LONG_LINE = 300;
// A control character no mail text needs marks the stand-ins (removed from the text beforehand).
const MARK = '\u0001';
// eslint-disable-next-line no-control-regex -- the mark is a control character on purpose
const STAND_IN = /\u0001(\d+)\u0001/g;

export function strippedTextOf(text: string | null): string | null {
  if (text === null) return null;
  const long: string[] = [];
  const shortened = text
    .replaceAll(MARK, '')
    .split('\n')
    .map((line) => {
      if (line.length <= LONG_LINE) return line;
      const quote = /^[>\s]*/.exec(line)![0];
      long.push(line.slice(quote.length));
      return `${quote}${MARK}${long.length - 1}${MARK}`;
    })
    .join('\n');
  let visible: string;
  try {
    visible = parser.read(shortened).getVisibleText();
  } catch {
    visible = shortened;
  }
  const restored = long.length === 0 ? visible : visible.replace(STAND_IN, (_, i: string) => long[Number(i)]!);
  const trimmed = restored.trim();
  return trimmed === '' ? null : trimmed;
}
