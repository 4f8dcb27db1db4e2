// Rows as the contract's Contact book and Contact.
import type { BookWithCount } from './book-queries.ts';
import type { ContactRow } from './queries.ts';

export function bookView(row: BookWithCount) {
  return {
    id: row.id,
    name: row.name,
    teamId: row.team_id,
    properties: row.properties,
    variables: row.variables,
    emoji: row.emoji,
    doubleOptInEnabled: row.double_opt_in_enabled,
    doubleOptInFrom: row.double_opt_in_from,
    doubleOptInSubject: row.double_opt_in_subject,
    doubleOptInContent: row.double_opt_in_content,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    _count: { contacts: row.contact_count },
  };
}

export function contactView(row: ContactRow) {
  return {
    id: row.id,
    firstName: row.first_name,
    lastName: row.last_name,
    email: row.email,
    subscribed: row.subscribed,
    properties: row.properties,
    contactBookId: row.contact_book_id,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}
