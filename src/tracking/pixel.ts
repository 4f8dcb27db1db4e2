// The open pixel: the smallest transparent 1×1 GIF (43 bytes: GIF89a header, a two-colour table, a
// graphic control extension marking colour 0 transparent, one 1×1 image). Every pixel request gets
// exactly these bytes, whether or not its token is valid, so the answer never tells a token's validity.
export const TRANSPARENT_GIF: Buffer = Buffer.from(
  'R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==',
  'base64',
);

/**
 * No cache anywhere (browsers, mail proxies such as Gmail's image proxy do their own fetch anyway):
 * every open should reach us. The token is in the URL, so no referrer leaves either.
 */
export const PIXEL_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'image/gif',
  'content-length': String(TRANSPARENT_GIF.length),
  'cache-control': 'no-store, no-cache, must-revalidate, max-age=0',
  pragma: 'no-cache',
  expires: '0',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
};
