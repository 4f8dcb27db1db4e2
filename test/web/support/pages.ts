// The sidebar's pages beside the ones the signed-in test drives (web/src/shell/nav.ts): each shows its name as h1.
export const otherPages = [
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
