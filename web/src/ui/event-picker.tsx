// The webhook event picker: "All events" (an empty list), or types chosen in groups by family.
import type { paths } from '../api/schema';

export type EventType = NonNullable<
  paths['/api/v1/webhooks']['post']['requestBody']
>['content']['application/json']['eventTypes'][number];

const families: { family: string; types: EventType[] }[] = [
  {
    family: 'Email',
    types: [
      'email.scheduled',
      'email.queued',
      'email.sent',
      'email.delivered',
      'email.delivery_delayed',
      'email.bounced',
      'email.rejected',
      'email.complained',
      'email.failed',
      'email.rendering_failure',
      'email.suppressed',
      'email.cancelled',
      'email.opened',
      'email.clicked',
      'email.received',
    ],
  },
  { family: 'SMS', types: ['sms.sent', 'sms.delivered', 'sms.failed', 'sms.rejected'] },
  { family: 'Campaign', types: ['campaign.started', 'campaign.paused', 'campaign.sent'] },
  { family: 'Journey', types: ['journey.run.completed', 'journey.run.exited'] },
  { family: 'Webhook', types: ['webhook.test'] },
];

const box = 'size-4 accent-[var(--accent)]';

export function EventPicker({
  value,
  onChange,
  describedBy,
}: {
  value: EventType[];
  onChange: (next: EventType[]) => void;
  describedBy?: string;
}) {
  const all = value.length === 0;
  const toggle = (type: EventType, on: boolean) => onChange(on ? [...value, type] : value.filter((t) => t !== type));
  return (
    <fieldset aria-describedby={describedBy} className="space-y-2">
      <legend className="mb-1 text-[13px] font-medium">Events</legend>
      <label className="flex items-center gap-2 text-[13px]">
        <input
          type="checkbox"
          className={box}
          checked={all}
          onChange={(e) => onChange(e.target.checked ? [] : ['email.delivered'])}
        />
        All events, including ones added later
      </label>
      {all ? null : (
        <div className="grid gap-3 sm:grid-cols-2">
          {families.map(({ family, types }) => {
            const chosen = types.filter((t) => value.includes(t)).length;
            return (
              <fieldset key={family} className="rounded-md border border-line p-2">
                <legend className="px-1 text-[12px] font-medium text-fg-2">
                  {family} ({chosen} of {types.length})
                </legend>
                {types.map((type) => (
                  <label key={type} className="flex h-7 items-center gap-2 font-mono text-[12px]">
                    <input
                      type="checkbox"
                      className={box}
                      checked={value.includes(type)}
                      onChange={(e) => toggle(type, e.target.checked)}
                    />
                    {type}
                  </label>
                ))}
              </fieldset>
            );
          })}
        </div>
      )}
    </fieldset>
  );
}
