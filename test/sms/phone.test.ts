// Strict E.164 at its edges, and the number types risk scoring reads (research/otp-sms.md §5).
import { describe, expect, it } from 'vitest';
import { maskPhone, parsePhone } from '../../src/platform/phone.ts';

describe('parsePhone', () => {
  it.each([
    ['GB', '+447400123456', 'GB', 'MOBILE'],
    ['US', '+12015550123', 'US', 'FIXED_LINE_OR_MOBILE'],
    ['NG', '+2348031234567', 'NG', 'MOBILE'],
    ['KE', '+254712345678', 'KE', 'MOBILE'],
  ])('accepts a valid %s mobile', (_name, input, country, numberType) => {
    expect(parsePhone(input)).toEqual({ ok: true, e164: input, country, numberType });
  });

  it('reports a premium-rate number as such (a risk signal, not a refusal)', () => {
    expect(parsePhone('+19005551234')).toMatchObject({ ok: true, numberType: 'PREMIUM_RATE' });
    expect(parsePhone('+448712345678')).toMatchObject({ ok: true, country: 'GB', numberType: 'PREMIUM_RATE' });
  });

  it('reports toll-free and fixed lines', () => {
    expect(parsePhone('+2348000000000')).toMatchObject({ ok: true, numberType: 'TOLL_FREE' });
    expect(parsePhone('+254202222222')).toMatchObject({ ok: true, numberType: 'FIXED_LINE' });
  });

  it('accepts 15 digits and refuses 16', () => {
    // +883 (international networks) numbers run to the full 15 digits.
    expect(parsePhone('+883510012345678')).toEqual({
      ok: true,
      e164: '+883510012345678',
      country: null,
      numberType: 'VOIP',
    });
    expect(parsePhone('+8835100123456789')).toMatchObject({ ok: false, reason: expect.stringContaining('E.164') });
    expect(parsePhone('+4915112345678901')).toMatchObject({ ok: false, reason: expect.stringContaining('E.164') });
  });

  it.each([
    ['a leading 0 after +', '+0447700900123'],
    ['spaces', '+44 7700 900123'],
    ['dashes', '+1-201-555-0123'],
    ['a national form', '07700900123'],
    ['no plus', '447700900123'],
    ['an extension', '+12015550123x12'],
    ['one digit', '+4'],
    ['empty', ''],
    ['letters', '+44770090012a'],
  ])('refuses %s', (_name, input) => {
    expect(parsePhone(input)).toMatchObject({ ok: false, reason: expect.stringContaining('E.164') });
  });

  it('refuses numbers of the right shape that no plan allocates', () => {
    expect(parsePhone('+2349000000000')).toEqual({ ok: false, reason: 'is not a valid phone number' });
    expect(parsePhone('+4411')).toMatchObject({ ok: false });
    expect(parsePhone('+999123456789')).toMatchObject({ ok: false });
  });
});

describe('maskPhone', () => {
  it('shows only the last four digits', () => {
    expect(maskPhone('+447700900123')).toBe('+********0123');
    expect(maskPhone('+2348031234567')).toBe('+*********4567');
    expect(maskPhone('+447700900123')).not.toContain('7700');
  });
});
