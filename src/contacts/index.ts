// What other areas may use of Contacts. Everything else in this folder is the area's own.
export { registerContactsArea } from './routes.ts';
export { addContacts, type AddResult } from './contact-writes.ts';
export {
  createContactState,
  announceCreatedContacts,
  CONTACT_CONFIRMATION_QUEUE,
  type ContactCreateState,
} from './create-contact-state.ts';
export { ContactInput, BULK_MAX } from './schemas.ts';
export { registerContactHooks, type ContactHooks, type ContactsAdded, type ContactsLeft } from './hooks.ts';
export { emailUnsubscribeUrl, contactUnsubscribeUrl } from '../platform/unsubscribe-links.ts';
export {
  bookFacts,
  contactByEmail,
  contactById,
  contactIdsByEmail,
  contactIdsInBook,
  contactsOf,
  lockBookFacts,
  mailableContactsQuery,
  type BookFacts,
  type ContactFacts,
} from './reader-queries.ts';
