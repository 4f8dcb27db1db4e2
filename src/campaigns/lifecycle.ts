// A campaign's life through the API: created DRAFT (or scheduled at once with sendNow/scheduledAt),
// changed only while DRAFT, scheduled (SCHEDULED, due at its time), paused and resumed, deleted
// unless RUNNING. Each change locks the campaign row in its transaction, so a second schedule or a
// pause racing the fan-out sees the status the other left.
import type { Kysely } from 'kysely';
import { deleteCampaignCounts } from '../analytics/index.ts';
import type { Database } from '../db/schema.ts';
import type { Principal } from '../platform/auth/api-keys.ts';
import type { Clock } from '../platform/clock.ts';
import { badRequest, notFound } from '../platform/errors.ts';
import { newId } from '../platform/ids.ts';
import { notifyQueue } from '../queue/index.ts';
import { CAMPAIGN_FANOUT_QUEUE } from './fanout.ts';
import {
  addressList,
  bodyOf,
  checkFields,
  checkSchedulable,
  type CampaignBody,
  type CampaignFields,
} from './checks.ts';
import { countersOf, type Counters } from './counters.ts';
import { recordCampaignEvent } from './events.ts';
import {
  deleteCampaign,
  getCampaign,
  insertCampaign,
  updateCampaign,
  type CampaignChange,
  type CampaignRow,
  type CampaignScope,
} from './queries.ts';
import { BATCH_SIZE_DEFAULT, type CreateCampaignInput, type PatchCampaignInput } from './schemas.ts';

export interface LifecycleDeps {
  db: Kysely<Database>;
  clock: Clock;
}

export const scopeOf = (principal: Principal): CampaignScope => ({
  teamId: principal.teamId,
  domainId: principal.domainId,
});

const NO_BODY: CampaignBody = { html: null, content: null, templateId: null };

const bodyOfRow = (row: CampaignRow): CampaignBody => ({
  html: row.html,
  content: row.content,
  templateId: row.template_id,
});

function fieldsOf(input: PatchCampaignInput, body: CampaignBody, current?: CampaignRow): CampaignFields {
  return {
    from: input.from ?? current!.from,
    contactBookId: input.contactBookId ?? current!.contact_book_id,
    segmentId: input.segmentId === undefined ? (current?.segment_id ?? null) : input.segmentId,
    templateId: body.templateId,
    replyTo: input.replyTo === undefined ? (current?.reply_to ?? []) : addressList(input.replyTo),
    cc: input.cc === undefined ? (current?.cc ?? []) : addressList(input.cc),
    bcc: input.bcc === undefined ? (current?.bcc ?? []) : addressList(input.bcc),
  };
}

async function lockedCampaign(tx: Kysely<Database>, principal: Principal, id: string): Promise<CampaignRow> {
  const row = await getCampaign(tx, scopeOf(principal), id, true);
  if (!row) throw notFound('Campaign');
  return row;
}

/** The fan-out's workers wake for a campaign due now (NOTIFY at commit: campaigns are few). */
const wakeFanout = (tx: Kysely<Database>) => notifyQueue(tx, CAMPAIGN_FANOUT_QUEUE);

/** SCHEDULED at `at` (now when null): due then. */
function scheduledChange(at: Date, now: Date): CampaignChange {
  return { status: 'SCHEDULED', scheduled_at: at, next_batch_at: at, paused_reason: null, updated_at: now };
}

function scheduleTime(scheduledAt: string | undefined, now: Date): Date {
  return scheduledAt === undefined ? now : new Date(scheduledAt);
}

export async function createCampaign(
  deps: LifecycleDeps,
  principal: Principal,
  input: CreateCampaignInput,
): Promise<CampaignRow> {
  const body = await bodyOf(input, NO_BODY);
  const fields = fieldsOf(input, body);
  const domainId = await checkFields(deps.db, principal, fields);
  const now = deps.clock.now();
  return deps.db.transaction().execute(async (tx) => {
    const row = await insertCampaign(tx, {
      id: newId('cmp_', now),
      team_id: principal.teamId,
      name: input.name,
      from: fields.from,
      domain_id: domainId,
      subject: input.subject,
      preview_text: input.previewText ?? null,
      contact_book_id: fields.contactBookId,
      segment_id: fields.segmentId,
      template_id: body.templateId,
      html: body.html,
      content: body.content,
      reply_to: JSON.stringify(fields.replyTo),
      cc: JSON.stringify(fields.cc),
      bcc: JSON.stringify(fields.bcc),
      status: 'DRAFT',
      paused_reason: null,
      scheduled_at: null,
      batch_size: input.batchSize ?? BATCH_SIZE_DEFAULT,
      batch_window_minutes: input.batchWindowMinutes ?? 0,
      next_batch_at: null,
      lease_until: null,
      last_error: null,
      started_at: null,
      finished_at: null,
      created_at: now,
      updated_at: now,
    });
    // useSend: sendNow or scheduledAt schedules the new campaign in the same request.
    if (input.sendNow !== true && input.scheduledAt === undefined) return row;
    await checkSchedulable(tx, row);
    await wakeFanout(tx);
    return updateCampaign(tx, row.team_id, row.id, scheduledChange(scheduleTime(input.scheduledAt, now), now));
  });
}

export async function patchCampaign(
  deps: LifecycleDeps,
  principal: Principal,
  id: string,
  input: PatchCampaignInput,
): Promise<CampaignRow> {
  return deps.db.transaction().execute(async (tx) => {
    const current = await lockedCampaign(tx, principal, id);
    if (current.status !== 'DRAFT')
      throw badRequest(`status: campaign ${id} is ${current.status}; only a DRAFT campaign can be changed`);
    const body = await bodyOf(input, bodyOfRow(current));
    const fields = fieldsOf(input, body, current);
    const domainId = await checkFields(tx, principal, fields);
    return updateCampaign(tx, principal.teamId, id, {
      ...(input.name !== undefined && { name: input.name }),
      ...(input.subject !== undefined && { subject: input.subject }),
      ...(input.previewText !== undefined && { preview_text: input.previewText }),
      ...(input.batchSize !== undefined && { batch_size: input.batchSize }),
      ...(input.batchWindowMinutes !== undefined && { batch_window_minutes: input.batchWindowMinutes }),
      from: fields.from,
      domain_id: domainId,
      contact_book_id: fields.contactBookId,
      segment_id: fields.segmentId,
      template_id: body.templateId,
      html: body.html,
      content: body.content,
      reply_to: JSON.stringify(fields.replyTo),
      cc: JSON.stringify(fields.cc),
      bcc: JSON.stringify(fields.bcc),
      updated_at: deps.clock.now(),
    });
  });
}

export async function scheduleCampaign(
  deps: LifecycleDeps,
  principal: Principal,
  id: string,
  input: { scheduledAt?: string | undefined; batchSize?: number | undefined },
): Promise<CampaignRow> {
  return deps.db.transaction().execute(async (tx) => {
    const current = await lockedCampaign(tx, principal, id);
    // A SCHEDULED campaign may move to another time; one that started never starts again.
    if (current.status !== 'DRAFT' && current.status !== 'SCHEDULED')
      throw badRequest(`status: campaign ${id} is ${current.status}; it cannot be scheduled again`);
    await checkSchedulable(tx, current);
    await wakeFanout(tx);
    const now = deps.clock.now();
    return updateCampaign(tx, principal.teamId, id, {
      ...scheduledChange(scheduleTime(input.scheduledAt, now), now),
      ...(input.batchSize !== undefined && { batch_size: input.batchSize }),
    });
  });
}

export async function pauseCampaign(deps: LifecycleDeps, principal: Principal, id: string): Promise<CampaignRow> {
  return deps.db.transaction().execute(async (tx) => {
    const current = await lockedCampaign(tx, principal, id);
    // One paused for the quota may be paused by hand, so that it does not go on by itself.
    const pausable =
      current.status === 'SCHEDULED' || current.status === 'RUNNING' || current.paused_reason === 'QUOTA';
    if (!pausable)
      throw badRequest(
        `status: campaign ${id} is ${current.status}; only a scheduled or running campaign can be paused`,
      );
    const now = deps.clock.now();
    const paused = await updateCampaign(tx, principal.teamId, id, {
      status: 'PAUSED',
      paused_reason: 'MANUAL',
      next_batch_at: null,
      updated_at: now,
    });
    // A campaign already paused for the quota said so then.
    if (current.status !== 'PAUSED') await recordCampaignEvent(tx, 'campaign.paused', paused, now);
    return paused;
  });
}

export async function resumeCampaign(deps: LifecycleDeps, principal: Principal, id: string): Promise<CampaignRow> {
  return deps.db.transaction().execute(async (tx) => {
    const current = await lockedCampaign(tx, principal, id);
    if (current.status !== 'PAUSED')
      throw badRequest(`status: campaign ${id} is ${current.status}; only a paused campaign can be resumed`);
    const now = deps.clock.now();
    // One paused before it started waits for its time again; one that started goes on now.
    const due = current.started_at === null && current.scheduled_at !== null && current.scheduled_at > now;
    await wakeFanout(tx);
    return updateCampaign(tx, principal.teamId, id, {
      status: current.started_at === null ? 'SCHEDULED' : 'RUNNING',
      paused_reason: null,
      next_batch_at: due ? current.scheduled_at : now,
      updated_at: now,
    });
  });
}

export async function removeCampaign(
  deps: LifecycleDeps,
  principal: Principal,
  id: string,
): Promise<{ row: CampaignRow; counters: Counters }> {
  return deps.db.transaction().execute(async (tx) => {
    const current = await lockedCampaign(tx, principal, id);
    if (current.status === 'RUNNING')
      throw badRequest(`status: campaign ${id} is RUNNING; pause it before deleting it`);
    // Answered as it was: its counters are read before they go with it.
    const counters = (await countersOf(tx, principal.teamId, [id])).get(id)!;
    await deleteCampaign(tx, principal.teamId, id);
    await deleteCampaignCounts(tx, principal.teamId, id);
    return { row: current, counters };
  });
}
