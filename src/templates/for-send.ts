// What the email capability reads from a template when a send names templateId (contract: the
// template supplies subject, preview text and type; its html is the body). Fill the variables with
// renderTemplate (variables.ts).
import type { Kysely } from 'kysely';
import type { Database, TemplateType } from '../db/schema.ts';
import { getTemplate } from './queries.ts';

export interface TemplateForSend {
  id: string;
  subject: string;
  previewText: string | null;
  type: TemplateType;
  /** Null only for a TRANSACTIONAL template stored without a body. */
  html: string | null;
}

/** The team's template, or undefined when the team has no template with that id. */
export async function getTemplateForSend(
  db: Kysely<Database>,
  teamId: number,
  templateId: string,
): Promise<TemplateForSend | undefined> {
  const row = await getTemplate(db, teamId, templateId);
  if (!row) return undefined;
  return { id: row.id, subject: row.subject, previewText: row.preview_text, type: row.type, html: row.html };
}
