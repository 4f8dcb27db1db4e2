// A template row as the contract's Template.
import type { TemplateRow } from './queries.ts';

export function templateView(row: TemplateRow) {
  return {
    id: row.id,
    name: row.name,
    subject: row.subject,
    type: row.type,
    previewText: row.preview_text,
    content: row.content,
    html: row.html,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}
