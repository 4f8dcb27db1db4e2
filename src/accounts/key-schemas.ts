// Request and response schemas of the team's own API key endpoints (/v1/api-keys, Herald extension).
import { z } from 'zod';
import { API_KEY_KINDS } from '../platform/auth/api-keys.ts';
import { serialId } from '../platform/serial-id.ts';

export const KEY_NAME_MAX = 200;

const ApiKeyKind = z
  .enum(API_KEY_KINDS)
  .describe('full (full access), readonly, sending (sending access), sandbox or live_ai: the contract key kinds');

export const CreateApiKeyBody = z.object({
  kind: ApiKeyKind,
  name: z.string().trim().min(1).max(KEY_NAME_MAX).optional().describe('a label for people, 1 to 200 characters'),
  domainId: serialId().optional().describe("limits the key to one of the team's domains"),
});

export const ApiKeyParams = z.object({ keyId: z.string().min(1).max(64) });

export const ApiKey = z
  .object({
    id: z.string(),
    kind: ApiKeyKind,
    name: z.string().nullable(),
    domainId: z.number().int().nullable().describe('the domain the key is limited to; null: every domain'),
    createdBy: z
      .number()
      .int()
      .nullable()
      .describe('the member who made the key; null when made by the operator or the first start, or the member left'),
    hint: z.string().describe('the last four characters of the key, as hk_…abcd; never the key'),
    createdAt: z.string(),
    lastUsedAt: z
      .string()
      .nullable()
      .describe('when the key last called the API, to within two minutes; null: not used yet'),
  })
  .meta({ id: 'ApiKey' });

export const CreatedApiKey = ApiKey.extend({
  key: z.string().describe('the API key itself; shown only in this answer, Herald keeps only a keyed hash'),
});

export const ApiKeyList = z.object({ data: z.array(ApiKey) });

export const RevokedApiKey = z.object({ id: z.string(), deleted: z.literal(true) });

export const ErrorBody = z.object({ error: z.object({ code: z.string(), message: z.string() }) });
