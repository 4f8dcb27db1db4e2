// The reads index.html's inline script starts as soon as the page's head is parsed, before the entry
// is fetched and evaluated: the session and, on the email log with no filter, its first page. A read
// of the bundle takes the one started for its exact URL, once; any other URL, or a
// second read of the same, goes to the network.
declare global {
  interface Window {
    heraldReads?: Record<string, Promise<Response> | undefined>;
  }
}

/** The response the inline script asked for at `url` (absolute or from this origin), if it did and nobody took it. */
export function takeInlineRead(url: string): Promise<Response> | undefined {
  const reads = window.heraldReads;
  if (!reads) return undefined;
  const key = new URL(url, location.origin).href;
  const read = reads[key];
  delete reads[key];
  return read;
}
