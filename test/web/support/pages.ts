// The routes that exist before their screens (web/src/shell/nav.ts): each shows its name as h1.
export const comingNextPages = [
  { path: 'templates', title: 'Templates' },
  { path: 'contacts', title: 'Contacts' },
  { path: 'segments', title: 'Segments' },
  { path: 'campaigns', title: 'Campaigns' },
  { path: 'journeys', title: 'Journeys' },
  { path: 'sms', title: 'SMS' },
  { path: 'codes', title: 'Codes' },
  { path: 'inboxes', title: 'Inboxes' },
  { path: 'billing', title: 'Billing' },
];
