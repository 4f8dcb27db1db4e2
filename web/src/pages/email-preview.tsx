// An email's HTML in a sandboxed iframe: no scripts, no same-origin, links open outside; remote
// images blocked (by the frame's own CSP) until "Load images", so a preview never records an open.
// Desktop 1024 / Mobile 375; a white canvas in dark mode too.
import { useState } from 'react';
import { Button } from '../ui/button.tsx';
import { cn } from '../ui/cn.ts';

function frameDocument(html: string, loadImages: boolean): string {
  const images = loadImages ? 'data: cid: https: http:' : 'data: cid:';
  const csp = `default-src 'none'; style-src 'unsafe-inline'; img-src ${images}; font-src data:`;
  return (
    `<!doctype html><html><head><meta charset="utf-8">` +
    `<meta http-equiv="Content-Security-Policy" content="${csp}">` +
    `<base target="_blank"><style>html{background:#fff;color:#000;color-scheme:light}</style></head>` +
    `<body>${html}</body></html>`
  );
}

export function EmailPreview({ html }: { html: string }) {
  const [loadImages, setLoadImages] = useState(false);
  const [width, setWidth] = useState<1024 | 375>(1024);
  return (
    <div>
      <div className="mb-3 flex flex-wrap items-center gap-2">
        <div role="group" aria-label="Preview width" className="flex rounded-md border border-control">
          {([1024, 375] as const).map((w) => (
            <button
              key={w}
              type="button"
              aria-pressed={width === w}
              onClick={() => setWidth(w)}
              className={cn('h-8 px-3 text-[13px]', width === w ? 'bg-muted font-medium' : 'text-fg-2')}
            >
              {w === 1024 ? 'Desktop' : 'Mobile'}
            </button>
          ))}
        </div>
        {loadImages ? null : <Button onClick={() => setLoadImages(true)}>Load images</Button>}
      </div>
      <div className="overflow-x-auto rounded-lg border border-line bg-white">
        <iframe
          title="Email preview"
          sandbox="allow-popups allow-popups-to-escape-sandbox"
          srcDoc={frameDocument(html, loadImages)}
          referrerPolicy="no-referrer"
          style={{ width: `${width}px`, maxWidth: '100%' }}
          className="mx-auto block h-[600px] bg-white"
        />
      </div>
    </div>
  );
}
