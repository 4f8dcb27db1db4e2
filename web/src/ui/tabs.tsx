// APG tabs (Radix, automatic activation) with the selected tab in the URL (?tab=).
import { Tabs as RadixTabs } from 'radix-ui';
import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router';

export interface TabSpec {
  value: string;
  label: string;
  content: ReactNode;
}

export function UrlTabs({ tabs, label }: { tabs: TabSpec[]; label: string }) {
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const value = tabs.some((t) => t.value === requested) ? requested! : tabs[0]!.value;
  return (
    <RadixTabs.Root
      value={value}
      onValueChange={(next) =>
        setParams(
          (current) => {
            const copy = new URLSearchParams(current);
            copy.delete('cursor'); // a cursor belongs to one tab's list
            if (next === tabs[0]!.value) copy.delete('tab');
            else copy.set('tab', next);
            return copy;
          },
          { replace: true },
        )
      }
    >
      <RadixTabs.List aria-label={label} className="flex gap-1 overflow-x-auto border-b border-line">
        {tabs.map((tab) => (
          <RadixTabs.Trigger
            key={tab.value}
            value={tab.value}
            className="-mb-px h-9 border-b-2 border-transparent px-3 text-[13px] font-medium whitespace-nowrap text-fg-2 hover:text-fg data-[state=active]:border-accent data-[state=active]:text-fg"
          >
            {tab.label}
          </RadixTabs.Trigger>
        ))}
      </RadixTabs.List>
      {tabs.map((tab) => (
        <RadixTabs.Content key={tab.value} value={tab.value} className="pt-4">
          {tab.content}
        </RadixTabs.Content>
      ))}
    </RadixTabs.Root>
  );
}
