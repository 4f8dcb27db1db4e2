// email-reply-parser reverses text one UTF-16 unit at a time by string concatenation (its private
// EmailParser.stringReverse), for every line and again for every quote-header pattern tried on it:
// on the inbound benchmark that was its largest cost and much of the intake's garbage
// (bench/RESULTS.md). The same reversal in one pass replaces it on the library's parser class, found
// beside the package's entry point. Should a later version move or drop the method, nothing is
// replaced and the library runs as published (applied: false).
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * Reverses UTF-16 code units, exactly as the library's own method does (pairs are restored by the
 * second reversal): the units' bytes reversed, then each unit's two bytes put back in order, without
 * the one-unit string per character that splitting makes.
 */
export const reverseUnits = (text: string): string =>
  Buffer.from(text, 'utf16le').reverse().swap16().toString('utf16le');

interface ParserClass {
  prototype: { stringReverse?: (text: string) => string };
}

async function patch(): Promise<boolean> {
  try {
    const entry = createRequire(import.meta.url).resolve('email-reply-parser');
    const file = pathToFileURL(path.join(path.dirname(entry), 'parser', 'emailparser.js')).href;
    const { default: EmailParser } = (await import(file)) as { default?: ParserClass };
    if (typeof EmailParser?.prototype.stringReverse !== 'function') return false;
    EmailParser.prototype.stringReverse = reverseUnits;
    return true;
  } catch {
    return false;
  }
}

export const applied = await patch();
