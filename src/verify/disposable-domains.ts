// Throwaway-mailbox domains for the DISPOSABLE_EMAIL signal, from the maintained list of the
// `disposable-email-domains` package (its exact domains and its wildcard ones, both matched with
// every subdomain). Loaded on the first email code, not when a process starts.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
let domains: ReadonlySet<string> | undefined;

function disposableDomains(): ReadonlySet<string> {
  domains ??= new Set([
    ...(require('disposable-email-domains/index.json') as string[]),
    ...(require('disposable-email-domains/wildcard.json') as string[]),
  ]);
  return domains;
}

export function isDisposableDomain(domain: string): boolean {
  const listed = disposableDomains();
  let name = domain.toLowerCase();
  for (;;) {
    if (listed.has(name)) return true;
    const dot = name.indexOf('.');
    if (dot < 0 || name.indexOf('.', dot + 1) < 0) return false;
    name = name.slice(dot + 1);
  }
}
