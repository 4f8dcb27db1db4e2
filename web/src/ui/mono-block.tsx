import type { ReactNode } from 'react';
import { CopyButton } from './copy-button.tsx';

/** Monospace text (JSON, headers, plain text bodies) with a copy button. */
export function MonoBlock({ text, copyLabel, children }: { text: string; copyLabel: string; children?: ReactNode }) {
  return (
    <div className="relative rounded-lg border border-line bg-surface">
      <CopyButton value={text} label={copyLabel} className="absolute top-1 right-1" />
      <pre
        tabIndex={0}
        aria-label={copyLabel.replace(/^Copy /, '')}
        className="max-h-[480px] overflow-auto p-3 pr-10 font-mono text-[12px] leading-5 whitespace-pre-wrap break-words"
      >
        {children ?? text}
      </pre>
    </div>
  );
}
