// A received message's sanitised HTML in a sandboxed srcdoc iframe (as email-preview.tsx): no
// scripts, no same-origin, links open outside, its own CSP. The API moved remote images to
// data-remote-src; "Load images" puts them back, so a sender never learns the mail was opened
// unless asked. Inline (cid:) images are Herald's own attachment links and show at once.
import { useMemo, useState } from 'react';
import { useSignedIn } from '../api/session.ts';
import { Button } from '../ui/button.tsx';

function withRemoteImages(html: string): string {
  // A parsed document loads nothing and runs nothing; the html is already sanitised by the API.
  const doc = new DOMParser().parseFromString(html, 'text/html');
  for (const img of doc.querySelectorAll('img[data-remote-src]')) {
    img.setAttribute('src', img.getAttribute('data-remote-src')!);
    img.removeAttribute('data-remote-src');
  }
  return doc.body.innerHTML;
}

function frameDocument(html: string, herald: string, loadImages: boolean): string {
  const images = loadImages ? `data: ${herald} https: http:` : `data: ${herald}`;
  const csp = `default-src 'none'; style-src 'unsafe-inline'; img-src ${images}; font-src data:`;
  return (
    `<!doctype html><html><head><meta charset="utf-8">` +
    `<meta http-equiv="Content-Security-Policy" content="${csp}">` +
    `<base target="_blank"><style>html{background:#fff;color:#000;color-scheme:light}` +
    `body{margin:16px;font:14px/1.5 system-ui,sans-serif}</style></head>` +
    `<body>${loadImages ? withRemoteImages(html) : html}</body></html>`
  );
}

export function InboxPreview({ html }: { html: string }) {
  const session = useSignedIn();
  const [loadImages, setLoadImages] = useState(false);
  const herald = new URL(session.instance.publicUrl).origin;
  const remote = html.includes('data-remote-src');
  const srcDoc = useMemo(() => frameDocument(html, herald, loadImages), [html, herald, loadImages]);
  return (
    <div>
      {remote && !loadImages ? (
        <div className="mb-3 flex flex-wrap items-center gap-2 text-[13px] text-fg-2">
          <span>Remote images are blocked, so the sender cannot tell the message was read.</span>
          <Button onClick={() => setLoadImages(true)}>Load images</Button>
        </div>
      ) : null}
      <div className="overflow-hidden rounded-lg border border-line bg-white">
        <iframe
          title="Email preview"
          sandbox="allow-popups allow-popups-to-escape-sandbox"
          srcDoc={srcDoc}
          referrerPolicy="no-referrer"
          className="block h-[480px] w-full bg-white"
        />
      </div>
    </div>
  );
}
