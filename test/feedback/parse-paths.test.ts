// The light reader (mime-report.ts) and mailparser must agree: every message the light path answers
// for gives the report simpleParser's path gives, and what it declines still parses through mailparser.
import { describe, expect, it } from 'vitest';
import { parseFeedbackReport, parseStandardReport, parseWithMailparser } from '../../src/feedback/parse-report.ts';
import { CORPUS } from './corpus.ts';

describe('the light parser and mailparser give the same report', () => {
  it.each(CORPUS.map((c) => [c.name, c] as const))('%s', async (_name, sample) => {
    const light = parseStandardReport(sample.raw);
    const full = await parseWithMailparser(sample.raw);
    if (sample.light) expect(light).not.toBeNull();
    else expect(light).toBeNull();
    if (light !== null) expect(light).toEqual(full);
    expect(await parseFeedbackReport(sample.raw)).toEqual(full);
  });
});
