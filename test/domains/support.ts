// Helpers for the Domains tests: unique names (files share the worker's database) and API calls.
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { bearer } from '../support/factory.ts';

/** A fresh registrable-looking name, e.g. d3f9a1c2b7e.example.com. */
export function uniqueDomain(parent = 'example.com'): string {
  return `d${randomBytes(5).toString('hex')}.${parent}`;
}

export interface DnsRecordJson {
  type: 'MX' | 'TXT';
  name: string;
  value: string;
  ttl: string;
  priority: string | null;
  status: string;
  recommended: boolean;
}

export interface DomainJson {
  id: number;
  name: string;
  teamId: number;
  status: string;
  publicKey: string;
  dkimStatus: string | null;
  spfDetails: string | null;
  isVerifying: boolean;
  dmarcAdded: boolean;
  errorMessage: string | null;
  verificationError: string | null;
  lastCheckedTime: string | null;
  subdomain: string | null;
  updatedAt: string;
  dnsRecords: DnsRecordJson[];
  [field: string]: unknown;
}

export async function call(
  app: FastifyInstance,
  key: string,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  payload?: unknown,
) {
  return app.inject({
    method,
    url: `/api${path}`,
    headers: bearer(key),
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

export async function createDomain(
  app: FastifyInstance,
  key: string,
  name = uniqueDomain(),
  region = 'us-east-1',
): Promise<DomainJson> {
  const response = await call(app, key, 'POST', '/v1/domains', { name, region });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

export async function getDomainJson(app: FastifyInstance, key: string, id: number): Promise<DomainJson> {
  const response = await call(app, key, 'GET', `/v1/domains/${id}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

/** The record of one kind in a Domain's dnsRecords. */
export function recordOf(domain: DomainJson, kind: 'DKIM' | 'SPF' | 'MX' | 'DMARC'): DnsRecordJson {
  const found = domain.dnsRecords.find((record) =>
    kind === 'MX'
      ? record.type === 'MX'
      : kind === 'DKIM'
        ? record.name.includes('._domainkey.')
        : kind === 'DMARC'
          ? record.name.startsWith('_dmarc.')
          : record.type === 'TXT' && record.value.startsWith('v=spf1'),
  );
  if (!found) throw new Error(`no ${kind} record in ${JSON.stringify(domain.dnsRecords)}`);
  return found;
}
