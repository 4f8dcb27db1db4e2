// Request examples written by hand where the one made from the schema alone would mislead: fields
// that exclude each other or that are required only together. Keyed by method and path without the
// API prefix. test/platform/openapi-examples.test.ts validates each against its operation's schema.
const welcome = {
  from: 'Acme <hello@example.com>',
  to: 'ada@example.com',
  subject: 'Welcome to Acme',
  html: '<p>Hello Ada, welcome aboard.</p>',
  text: 'Hello Ada, welcome aboard.',
};

export const OPERATION_REQUEST_EXAMPLES: Record<string, unknown> = {
  'POST /v1/emails': welcome,
  'POST /v1/emails/batch': [
    welcome,
    { ...welcome, to: 'grace@example.com', html: '<p>Hello Grace, welcome aboard.</p>', text: undefined },
  ].map((email) => JSON.parse(JSON.stringify(email)) as unknown),
  'POST /v1/templates': {
    name: 'Welcome email',
    subject: 'Welcome to Acme, {{firstName}}',
    html: '<p>Hello {{firstName}}, welcome aboard.</p>',
  },
  'PATCH /v1/templates/{templateId}': {
    subject: 'Welcome aboard, {{firstName}}',
    content: JSON.stringify({
      version: 1,
      blocks: [
        { type: 'heading', level: 1, text: 'Welcome, {{firstName}}' },
        { type: 'paragraph', content: ['Your account is ready.'] },
      ],
    }),
  },
  'PATCH /v1/contactBooks/{contactBookId}': {
    name: 'Newsletter',
    doubleOptInEnabled: true,
    doubleOptInFrom: 'Acme <hello@example.com>',
    doubleOptInSubject: 'Please confirm your subscription',
  },
  'POST /v1/verify/send': { to: 'ada@example.com', channel: 'email', appName: 'Acme' },
  'POST /v1/journeys/{id}/enroll': { email: 'ada@example.com' },
};
