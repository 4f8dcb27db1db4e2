// A campaign as the API answers it: the row with its counters (counters.ts), times in ISO 8601.
import type { z } from 'zod';
import type { Counters } from './counters.ts';
import type { CampaignRow } from './queries.ts';
import type { Campaign, CampaignSummary } from './schemas.ts';

const iso = (at: Date | null) => (at === null ? null : at.toISOString());

export function campaignSummaryView(row: CampaignRow, c: Counters): z.infer<typeof CampaignSummary> {
  return {
    id: row.id,
    name: row.name,
    from: row.from,
    subject: row.subject,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    status: row.status,
    scheduledAt: iso(row.scheduled_at),
    total: c.total,
    sent: c.sent,
    delivered: c.delivered,
    unsubscribed: c.unsubscribed,
    contactBookId: row.contact_book_id,
    segmentId: row.segment_id,
    opened: c.opened,
    clicked: c.clicked,
  };
}

export function campaignView(row: CampaignRow, c: Counters): z.infer<typeof Campaign> {
  return {
    ...campaignSummaryView(row, c),
    previewText: row.preview_text,
    templateId: row.template_id,
    html: row.html,
    content: row.content,
    batchSize: row.batch_size,
    batchWindowMinutes: row.batch_window_minutes,
    bounced: c.bounced,
    hardBounced: c.hardBounced,
    complained: c.complained,
    replyTo: row.reply_to,
    cc: row.cc,
    bcc: row.bcc,
    pausedReason: row.paused_reason,
    startedAt: iso(row.started_at),
    finishedAt: iso(row.finished_at),
  };
}
