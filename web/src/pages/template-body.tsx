// A template's body, as HTML or as the block document (docs/templates.md), in APG tabs whose choice
// lives in the URL (?body=html|blocks). The API takes one or the other: saving HTML drops the blocks.
import { Tabs } from 'radix-ui';
import { useSearchParams } from 'react-router';
import { Field } from '../ui/dialog.tsx';

export type BodyMode = 'html' | 'blocks';

/** An empty document: a valid start for a template that has none. */
export const STARTER_DOCUMENT = JSON.stringify({ version: 1, blocks: [] }, null, 2);

/** The stored document, indented for editing (it is stored compact). */
export function prettyDocument(content: string | null): string {
  if (!content) return STARTER_DOCUMENT;
  try {
    return JSON.stringify(JSON.parse(content), null, 2);
  } catch {
    return content;
  }
}

export function useBodyMode(fallback: BodyMode): [BodyMode, (mode: BodyMode) => void] {
  const [params, setParams] = useSearchParams();
  const requested = params.get('body');
  const mode: BodyMode = requested === 'html' || requested === 'blocks' ? requested : fallback;
  const set = (next: BodyMode) =>
    setParams(
      (current) => {
        const copy = new URLSearchParams(current);
        if (next === fallback) copy.delete('body');
        else copy.set('body', next);
        return copy;
      },
      { replace: true },
    );
  return [mode, set];
}

const area =
  'block min-h-[320px] w-full resize-y rounded-md border border-control bg-bg p-2 font-mono text-[12px] leading-5';
const tab =
  '-mb-px h-9 border-b-2 border-transparent px-3 text-[13px] font-medium text-fg-2 hover:text-fg data-[state=active]:border-accent data-[state=active]:text-fg';

export function BodyEditor({
  mode,
  onMode,
  html,
  onHtml,
  content,
  onContent,
  htmlError,
  contentError,
  storedAsBlocks,
}: {
  mode: BodyMode;
  onMode: (mode: BodyMode) => void;
  html: string;
  onHtml: (html: string) => void;
  content: string;
  onContent: (content: string) => void;
  htmlError?: string;
  contentError?: string;
  /** The saved template is a block document: editing its HTML replaces the blocks. */
  storedAsBlocks: boolean;
}) {
  return (
    <Tabs.Root value={mode} onValueChange={(next) => onMode(next as BodyMode)}>
      <Tabs.List aria-label="Body" className="flex gap-1 border-b border-line">
        <Tabs.Trigger value="html" className={tab}>
          HTML
        </Tabs.Trigger>
        <Tabs.Trigger value="blocks" className={tab}>
          Blocks
        </Tabs.Trigger>
      </Tabs.List>
      <Tabs.Content value="html" className="pt-3">
        <Field
          label="HTML"
          hint={
            storedAsBlocks
              ? 'Saving HTML replaces the block document. Herald sanitises HTML: scripts, forms and event handlers are removed.'
              : 'Herald sanitises HTML: scripts, forms and event handlers are removed; <style> rules are inlined.'
          }
          error={htmlError}
        >
          {(props) => (
            <textarea
              {...props}
              className={area}
              spellCheck={false}
              value={html}
              onChange={(e) => onHtml(e.target.value)}
            />
          )}
        </Field>
      </Tabs.Content>
      <Tabs.Content value="blocks" className="pt-3">
        <Field
          label="Block document (JSON)"
          hint="Blocks: heading, paragraph, link, button, image, divider, spacer (docs/templates.md). The API renders them to HTML when you save."
          error={contentError}
        >
          {(props) => (
            <textarea
              {...props}
              className={area}
              spellCheck={false}
              value={content}
              onChange={(e) => onContent(e.target.value)}
            />
          )}
        </Field>
      </Tabs.Content>
    </Tabs.Root>
  );
}
