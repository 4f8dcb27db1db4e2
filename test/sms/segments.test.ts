// Segment counting against the table in research/otp-sms.md §4 (checked there against Twilio's
// calculator and split-sms), plus the contract's billing sentence: 160 / 153 GSM-7, 70 / 67 UCS-2.
import { describe, expect, it } from 'vitest';
import { SegmentedMessage } from 'sms-segments-calculator';
import { countSegments } from '../../src/sms/segments.ts';

const a = (n: number) => 'a'.repeat(n);
const zh = (n: number) => 'ж'.repeat(n);
const smile = (n: number) => '😀'.repeat(n);

describe('countSegments', () => {
  it.each([
    ['160 a', a(160), 'GSM-7', 1],
    ['161 a', a(161), 'GSM-7', 2],
    ['306 a', a(306), 'GSM-7', 2],
    ['307 a', a(307), 'GSM-7', 3],
    ['159 a + {', a(159) + '{', 'GSM-7', 2],
    ['80 €', '€'.repeat(80), 'GSM-7', 1],
    ['70 ж', zh(70), 'UCS-2', 1],
    ['71 ж', zh(71), 'UCS-2', 2],
    ['134 ж', zh(134), 'UCS-2', 2],
    ['135 ж', zh(135), 'UCS-2', 3],
    ['35 😀', smile(35), 'UCS-2', 1],
    ['36 😀', smile(36), 'UCS-2', 2],
    ['66 ж + 😀 + 66 ж', zh(66) + '😀' + zh(66), 'UCS-2', 3],
  ])('%s: %s', (_name, text, encoding, segments) => {
    expect(countSegments(text)).toMatchObject({ encoding, segments });
  });

  it('counts an extension character as two septets in one part (158 a + { fits, 159 a + { does not)', () => {
    expect(countSegments(a(158) + '{').segments).toBe(1);
    expect(countSegments(a(159) + '{').segments).toBe(2);
  });

  it('keeps an extension character whole at a part boundary (152 a + { + 153 a: 3 parts, not 2)', () => {
    // 152 + 2 + 153 = 307 septets, but the ESC pair cannot straddle parts one and two.
    expect(countSegments(a(151) + '{' + a(153)).segments).toBe(2);
    expect(countSegments(a(152) + '{' + a(152)).segments).toBe(3);
  });

  it('switches to UCS-2 for a character outside GSM-7 (₦, smart quotes, lower-case ç)', () => {
    expect(countSegments('Pay ₦500').encoding).toBe('UCS-2');
    expect(countSegments('KSh 500').encoding).toBe('GSM-7');
    expect(countSegments('it’s').encoding).toBe('UCS-2');
    expect(countSegments('ç').encoding).toBe('UCS-2');
    expect(countSegments('Ç').encoding).toBe('GSM-7');
  });

  it('counts characters as code points (an emoji is one) and bills the contract limit of 1,600', () => {
    expect(countSegments(smile(3)).characters).toBe(3);
    expect(countSegments(a(1600))).toEqual({ encoding: 'GSM-7', segments: 11, characters: 1600 });
    expect(countSegments(zh(1600))).toEqual({ encoding: 'UCS-2', segments: 24, characters: 1600 });
  });

  it('answers 0 segments for empty text', () => {
    expect(countSegments('')).toEqual({ encoding: 'GSM-7', segments: 0, characters: 0 });
  });

  it("agrees with Twilio's calculator (sms-segments-calculator) on mixed random texts", () => {
    const alphabet = ['a', ' ', '{', '€', '\n', 'é', 'ç', 'ж', '😀', '₦', '^', '9', '’'];
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let round = 0; round < 300; round++) {
      const length = 1 + Math.floor(random() * 400);
      // Mostly GSM characters so both encodings and both sides of every boundary come up.
      const gsmOnly = random() < 0.5;
      let text = '';
      for (let i = 0; i < length; i++) text += alphabet[Math.floor(random() * (gsmOnly ? 6 : alphabet.length))];
      const twilio = new SegmentedMessage(text);
      expect(countSegments(text), text).toMatchObject({
        encoding: twilio.encodingName,
        segments: twilio.segmentsCount,
      });
    }
  });

  it("uses the same GSM-7 alphabet as Twilio's calculator", () => {
    for (let code = 0; code < 0x3000; code++) {
      const char = String.fromCharCode(code);
      if (code >= 0xd800 && code <= 0xdfff) continue;
      expect(countSegments(char).encoding, `U+${code.toString(16)}`).toBe(new SegmentedMessage(char).encodingName);
    }
  });
});
