// A fake S3 on loopback speaking the REST and XML of the calls Herald makes (path-style PUT, GET
// with Range, HEAD, DELETE, POST ?delete, GET ?list-type=2 with prefix, delimiter and paging of
// 1,000), so the S3 blob store is tested as production reaches a bucket: through HERALD_S3_ENDPOINT.
// It checks that requests are signed with the expected access key id, not the signature itself.
// (s3rver, the usual fake, drops common prefixes of keys two levels below the listed prefix.)
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeS3 {
  endpoint: string;
  bucket: string;
  /** The keys held, for assertions. */
  objects: Map<string, Buffer>;
  close(): Promise<void>;
}

const ACCESS_KEY_ID = 'HERALDTESTKEY';
const PAGE = 1000;

const escapeXml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function xml(res: http.ServerResponse, status: number, body: string) {
  res.writeHead(status, { 'content-type': 'application/xml' });
  res.end(`<?xml version="1.0" encoding="UTF-8"?>\n${body}`);
}

const s3Error = (res: http.ServerResponse, status: number, code: string, message: string) =>
  xml(res, status, `<Error><Code>${code}</Code><Message>${escapeXml(message)}</Message></Error>`);

async function bodyOf(req: http.IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function list(objects: Map<string, Buffer>, params: URLSearchParams): string {
  const prefix = params.get('prefix') ?? '';
  const delimiter = params.get('delimiter') ?? '';
  const after = params.has('continuation-token')
    ? Buffer.from(params.get('continuation-token')!, 'base64url').toString()
    : '';
  const entries: { key: string; common: boolean }[] = [];
  const seen = new Set<string>();
  for (const key of [...objects.keys()].filter((k) => k.startsWith(prefix)).sort()) {
    const cut = delimiter === '' ? -1 : key.indexOf(delimiter, prefix.length);
    const entry = cut === -1 ? key : key.slice(0, cut + delimiter.length);
    if (entry <= after || seen.has(entry)) continue;
    seen.add(entry);
    entries.push({ key: entry, common: cut !== -1 });
  }
  const page = entries.slice(0, PAGE);
  const truncated = entries.length > PAGE;
  const contents = page
    .filter((e) => !e.common)
    .map((e) => `<Contents><Key>${escapeXml(e.key)}</Key><Size>${objects.get(e.key)!.length}</Size></Contents>`);
  const commons = page
    .filter((e) => e.common)
    .map((e) => `<CommonPrefixes><Prefix>${escapeXml(e.key)}</Prefix></CommonPrefixes>`);
  const next = truncated
    ? `<NextContinuationToken>${Buffer.from(page.at(-1)!.key).toString('base64url')}</NextContinuationToken>`
    : '';
  return (
    `<ListBucketResult><Prefix>${escapeXml(prefix)}</Prefix><KeyCount>${page.length}</KeyCount>` +
    `<MaxKeys>${PAGE}</MaxKeys><IsTruncated>${truncated}</IsTruncated>${next}${contents.join('')}${commons.join('')}</ListBucketResult>`
  );
}

function getObject(req: http.IncomingMessage, res: http.ServerResponse, bytes: Buffer) {
  const range = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range ?? '');
  if (range === null) {
    res.writeHead(200, { 'content-length': bytes.length });
    return res.end(req.method === 'HEAD' ? undefined : bytes);
  }
  const start = Number(range[1]);
  if (start >= bytes.length) return s3Error(res, 416, 'InvalidRange', 'The requested range is not satisfiable');
  const part = bytes.subarray(start, Math.min(Number(range[2]) + 1, bytes.length));
  res.writeHead(206, {
    'content-length': part.length,
    'content-range': `bytes ${start}-${start + part.length - 1}/${bytes.length}`,
  });
  res.end(part);
}

export async function startFakeS3(bucket = 'herald-test'): Promise<FakeS3> {
  const objects = new Map<string, Buffer>();
  const server = http.createServer((req, res) => {
    void (async () => {
      if (!(req.headers.authorization ?? '').includes(`Credential=${ACCESS_KEY_ID}/`))
        return s3Error(res, 403, 'InvalidAccessKeyId', 'The AWS access key Id you provided does not exist');
      const url = new URL(req.url!, 'http://fake-s3');
      const [, name, ...rest] = url.pathname.split('/');
      if (name !== bucket) return s3Error(res, 404, 'NoSuchBucket', 'The specified bucket does not exist');
      const key = rest.map(decodeURIComponent).join('/');
      const body = await bodyOf(req);
      if (key === '' && req.method === 'GET' && url.searchParams.get('list-type') === '2')
        return xml(res, 200, list(objects, url.searchParams));
      if (key === '' && req.method === 'POST' && url.searchParams.has('delete')) {
        for (const [, k] of body.toString().matchAll(/<Key>([^<]*)<\/Key>/g)) objects.delete(decodeXml(k!));
        return xml(res, 200, '<DeleteResult></DeleteResult>');
      }
      if (req.method === 'PUT') {
        objects.set(key, body);
        res.writeHead(200, { etag: '"fake"' });
        return res.end();
      }
      if (req.method === 'DELETE') {
        objects.delete(key);
        res.writeHead(204);
        return res.end();
      }
      const bytes = objects.get(key);
      if (bytes === undefined) {
        if (req.method === 'HEAD') return res.writeHead(404).end();
        return s3Error(res, 404, 'NoSuchKey', 'The specified key does not exist.');
      }
      return getObject(req, res, bytes);
    })().catch((error: unknown) => s3Error(res, 500, 'InternalError', String(error)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    objects,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const decodeXml = (text: string) =>
  text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');

/** The S3 variables that point Herald at this server. */
export const fakeS3Env = (s3: FakeS3, prefix = 'blobs') => ({
  HERALD_BLOB_STORE: `s3://${s3.bucket}/${prefix}`,
  HERALD_S3_ENDPOINT: s3.endpoint,
  HERALD_S3_REGION: 'us-east-1',
  HERALD_S3_ACCESS_KEY_ID: ACCESS_KEY_ID,
  HERALD_S3_SECRET_ACCESS_KEY: 'herald-test-secret',
});
