// The DISPOSABLE_EMAIL signal's list: the package's exact and wildcard domains, each with every
// subdomain, case-insensitively; ordinary mail providers are not on it.
import { expect, it } from 'vitest';
import { isDisposableDomain } from '../../src/verify/disposable-domains.ts';

it('knows listed domains and their subdomains, and leaves ordinary providers alone', () => {
  expect(isDisposableDomain('mailinator.com')).toBe(true);
  expect(isDisposableDomain('YOPMAIL.com')).toBe(true);
  expect(isDisposableDomain('inbox.33mail.com')).toBe(true);
  expect(isDisposableDomain('a.b.guerrillamail.com')).toBe(true);
  for (const ordinary of ['gmail.com', 'example.com', 'outlook.com', 'mailinator.com.example.org', 'com'])
    expect(isDisposableDomain(ordinary), ordinary).toBe(false);
});
