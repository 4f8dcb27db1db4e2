// Every SQL statement of the templates area; the team id comes first and is in every WHERE.
import type { Selectable, Transaction } from 'kysely';
import type { Database, TemplatesTable, TemplateType } from '../db/schema.ts';
import type { Db } from '../db/handle.ts';

export type TemplateRow = Selectable<TemplatesTable>;

interface NewTemplate {
  id: string;
  name: string;
  subject: string;
  type: TemplateType;
  previewText: string | null;
  content: string | null;
  html: string | null;
}

interface TemplateChanges {
  name?: string;
  subject?: string;
  type?: TemplateType;
  previewText?: string | null;
  content?: string | null;
  html?: string | null;
}

export async function insertTemplate(db: Db, teamId: number, template: NewTemplate, now: Date): Promise<TemplateRow> {
  return db
    .insertInto('templates')
    .values({
      id: template.id,
      team_id: teamId,
      name: template.name,
      subject: template.subject,
      type: template.type,
      preview_text: template.previewText,
      content: template.content,
      html: template.html,
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function getTemplate(db: Db, teamId: number, templateId: string): Promise<TemplateRow | undefined> {
  return db
    .selectFrom('templates')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('id', '=', templateId)
    .executeTakeFirst();
}

/** The row, locked until the transaction ends (read-modify-write of an update). */
export async function getTemplateForUpdate(
  tx: Transaction<Database>,
  teamId: number,
  templateId: string,
): Promise<TemplateRow | undefined> {
  return tx
    .selectFrom('templates')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('id', '=', templateId)
    .forUpdate()
    .executeTakeFirst();
}

/** Most recently changed first; id breaks ties so pages never overlap. */
export async function listTemplates(db: Db, teamId: number, page: number, limit: number): Promise<TemplateRow[]> {
  return db
    .selectFrom('templates')
    .selectAll()
    .where('team_id', '=', teamId)
    .orderBy('updated_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .offset((page - 1) * limit)
    .execute();
}

export async function updateTemplate(
  db: Db,
  teamId: number,
  templateId: string,
  changes: TemplateChanges,
  now: Date,
): Promise<TemplateRow | undefined> {
  return db
    .updateTable('templates')
    .set({
      name: changes.name,
      subject: changes.subject,
      type: changes.type,
      preview_text: changes.previewText,
      content: changes.content,
      html: changes.html,
      updated_at: now,
    })
    .where('team_id', '=', teamId)
    .where('id', '=', templateId)
    .returningAll()
    .executeTakeFirst();
}

export async function deleteTemplate(db: Db, teamId: number, templateId: string): Promise<boolean> {
  const result = await db
    .deleteFrom('templates')
    .where('team_id', '=', teamId)
    .where('id', '=', templateId)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}
