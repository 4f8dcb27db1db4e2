// A campaign as the API answers it: the row with its counters (campaign_stats), times in ISO 8601.
import type { z } from 'zod';
import type { CampaignRow, CampaignStats } from './queries.ts';
import type { Campaign, CampaignSummary } from './schemas.ts';

const iso = (at: Date | null) => (at === null ? null : at.toISOString());

const NO_STATS = {
  total: 0,
  sent: 0,
  delivered: 0,
  opened: 0,
  clicked: 0,
  unsubscribed: 0,
  bounced: 0,
  hard_bounced: 0,
  complained: 0,
};

export function campaignSummaryView(
  row: CampaignRow,
  stats: CampaignStats | undefined,
): z.infer<typeof CampaignSummary> {
  const s = stats ?? NO_STATS;
  return {
    id: row.id,
    name: row.name,
    from: row.from,
    subject: row.subject,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    status: row.status,
    scheduledAt: iso(row.scheduled_at),
    total: s.total,
    sent: s.sent,
    delivered: s.delivered,
    unsubscribed: s.unsubscribed,
  };
}

export function campaignView(row: CampaignRow, stats: CampaignStats | undefined): z.infer<typeof Campaign> {
  const s = stats ?? NO_STATS;
  return {
    ...campaignSummaryView(row, stats),
    previewText: row.preview_text,
    contactBookId: row.contact_book_id,
    segmentId: row.segment_id,
    templateId: row.template_id,
    html: row.html,
    content: row.content,
    batchSize: row.batch_size,
    batchWindowMinutes: row.batch_window_minutes,
    opened: s.opened,
    clicked: s.clicked,
    bounced: s.bounced,
    hardBounced: s.hard_bounced,
    complained: s.complained,
    replyTo: row.reply_to,
    cc: row.cc,
    bcc: row.bcc,
    pausedReason: row.paused_reason,
    startedAt: iso(row.started_at),
    finishedAt: iso(row.finished_at),
  };
}
