// What the MIME parser (mailparser over @zone-eu/mailsplit) can take, checked before it is asked,
// and a deadline on every parse (parseMimeWithin: the inbox intake and the feedback path).
// mailsplit gives up past 1,000 MIME nodes (the message itself counts) or a 1 MiB header block, and
// mailparser does not pass that on: the parse resolves with parts missing (no headers at all after a
// 1 MiB header line) or, when the error comes while simpleParser waits for an attachment's stream to
// end, never settles (mailparser stops reading the splitter, so that stream never ends). So the
// listener refuses such a message in the session (smtp-listener.ts), and a message that was spooled
// anyway is kept as unreadable instead of parsed (src/inboxes/parse-message.ts).

/** mailsplit's MAX_CHILD_NODES: nodes it reads, the message itself included (999 parts inside). */
export const MAX_MIME_NODES = 1000;

/** A header block (the message's, or a part's) longer than this is refused; mailsplit's own limit is 1 MiB. */
export const MAX_HEADER_BLOCK_BYTES = 512 * 1024;

export interface MessageShapeProblem {
  reason: 'too_many_parts' | 'header_too_long';
  /** Words for the SMTP reply and the operator's listing. */
  message: string;
}

const BOUNDARY_PARAM = /boundary\*?\s*=\s*(?:"([^"\r\n]*)"|([^\s;"]+))/gi;
const LF = 0x0a;
const CR = 0x0d;
const DASH = 0x2d;

/** Every boundary any Content-Type of the message declares, as the delimiter line `--boundary`. */
function delimitersOf(text: string): Set<string> {
  const delimiters = new Set<string>();
  for (const match of text.matchAll(BOUNDARY_PARAM)) {
    const boundary = match[1] ?? match[2] ?? '';
    if (boundary !== '') delimiters.add(`--${boundary}`);
  }
  return delimiters;
}

/**
 * Counts the MIME nodes mailsplit would make (at least as many: every line that is a delimiter of
 * any declared boundary opens a node, and every message/rfc822 part may open one more) and the size
 * of each header block, in one pass over the lines. Null when the parser can take the message.
 */
export function messageShapeProblem(raw: Buffer): MessageShapeProblem | null {
  const text = raw.toString('latin1');
  const delimiters = delimitersOf(text);
  let nodes = 1 + (text.match(/message\/rfc822/gi)?.length ?? 0);
  let inHeader = true;
  let headerBytes = 0;
  for (let start = 0; start < raw.length;) {
    const newline = raw.indexOf(LF, start);
    const end = newline === -1 ? raw.length : newline + 1;
    let content = newline === -1 ? end : newline;
    if (content > start && raw[content - 1] === CR) content--;
    const lineStart = raw[start] === CR ? start + 1 : start;
    if (content - lineStart >= 3 && raw[lineStart] === DASH && raw[lineStart + 1] === DASH) {
      if (delimiters.has(text.slice(lineStart, content))) {
        nodes++;
        if (nodes > MAX_MIME_NODES) return tooManyParts();
        // A delimiter opens a part, and the part's header block follows.
        inHeader = true;
        headerBytes = 0;
        start = end;
        continue;
      }
    }
    if (inHeader) {
      headerBytes += end - start;
      if (headerBytes > MAX_HEADER_BLOCK_BYTES) return headerTooLong();
      if (content === start) inHeader = false;
    }
    start = end;
  }
  return null;
}

function tooManyParts(): MessageShapeProblem {
  return {
    reason: 'too_many_parts',
    message: `Message has too many MIME parts (at most ${MAX_MIME_NODES - 1} are read)`,
  };
}

function headerTooLong(): MessageShapeProblem {
  return {
    reason: 'header_too_long',
    message: `Message has a header block over ${MAX_HEADER_BLOCK_BYTES} bytes`,
  };
}

/** The parser cannot take this message (too many parts, a header block over its limit): retrying cannot help. */
export class UnreadableMessageError extends Error {
  override name = 'UnreadableMessageError';
}

/** The parse did not settle in time; it may on another try (a loaded machine), so it is retried. */
export class ParseDeadlineError extends Error {
  override name = 'ParseDeadlineError';
}

/** A 10 MiB message parses in well under a second; past this the parse is taken as hung. */
export const PARSE_DEADLINE_MS = 15_000;

/**
 * mailparser, with the limits checked first and a deadline as the backstop: the hang it has past its
 * limits would otherwise hold every message behind this one. A parse that is cut short runs on
 * unreferenced; it holds no connection or lock.
 */
export async function parseMimeWithin<T>(
  raw: Buffer,
  parse: (raw: Buffer) => Promise<T>,
  deadlineMs: number = PARSE_DEADLINE_MS,
): Promise<T> {
  const problem = messageShapeProblem(raw);
  if (problem !== null) throw new UnreadableMessageError(problem.message);
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new ParseDeadlineError(`the message was not parsed within ${deadlineMs / 1000} s`)),
      deadlineMs,
    );
  });
  try {
    return await Promise.race([parse(raw), deadline]);
  } finally {
    clearTimeout(timer);
  }
}
