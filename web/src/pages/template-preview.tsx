// A template's preview in a frame sandboxed without scripts or same-origin, as email-preview.tsx
// shows mail: its own CSP inside, remote images only after "Load images", links open outside.
// Desktop (640 px) or Mobile (375 px), chosen in the URL (?width=mobile) so a link shows the same.
import { useState } from 'react';
import { useUrlParam } from '../lib/use-url-param.ts';
import { Button } from '../ui/button.tsx';
import { cn } from '../ui/cn.ts';

const WIDTHS = { desktop: 640, mobile: 375 } as const;
type Width = keyof typeof WIDTHS;

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

export function TemplatePreview({
  subject,
  previewText,
  html,
  note,
}: {
  subject: string;
  previewText: string;
  html: string | null;
  /** Says what the frame shows when it is not the text being edited (the saved render). */
  note?: string;
}) {
  const [param, setParam] = useUrlParam('width');
  const width: Width = param === 'mobile' ? 'mobile' : 'desktop';
  const [loadImages, setLoadImages] = useState(false);
  return (
    <section aria-label="Preview" className="min-w-0">
      <div className="mb-3 flex flex-wrap items-center gap-2">
        <h2 className="mr-auto text-[13px] font-semibold">Preview</h2>
        <div role="group" aria-label="Preview width" className="flex rounded-md border border-control">
          {(['desktop', 'mobile'] as const).map((w) => (
            <button
              key={w}
              type="button"
              aria-pressed={width === w}
              onClick={() => setParam(w === 'desktop' ? null : w)}
              className={cn('h-8 px-3 text-[13px]', width === w ? 'bg-muted font-medium' : 'text-fg-2')}
            >
              {w === 'desktop' ? 'Desktop' : 'Mobile'}
            </button>
          ))}
        </div>
        {loadImages ? null : <Button onClick={() => setLoadImages(true)}>Load images</Button>}
      </div>
      <dl className="mb-2 grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 text-[13px]">
        <dt className="text-fg-2">Subject</dt>
        <dd className="truncate">{subject || '—'}</dd>
        {previewText ? (
          <>
            <dt className="text-fg-2">Preview text</dt>
            <dd className="truncate text-fg-2">{previewText}</dd>
          </>
        ) : null}
      </dl>
      {note ? <p className="mb-2 text-[12px] text-fg-2">{note}</p> : null}
      {/* Wider than a phone's screen at Desktop: it scrolls sideways, so it takes focus for the keys. */}
      <div
        role="group"
        aria-label="Preview frame"
        tabIndex={0}
        className="overflow-x-auto rounded-lg border border-line bg-white"
      >
        {html ? (
          <iframe
            title="Email preview"
            sandbox="allow-popups allow-popups-to-escape-sandbox"
            srcDoc={frameDocument(html, loadImages)}
            referrerPolicy="no-referrer"
            style={{ width: `${WIDTHS[width]}px` }}
            className="mx-auto block h-[560px] bg-white"
          />
        ) : (
          <p className="p-6 text-center text-[13px] text-[#52525B]">No body yet: write some HTML or blocks.</p>
        )}
      </div>
    </section>
  );
}
