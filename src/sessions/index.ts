// What other parts may use of Sessions (the dashboard's sign-in and sessions). Everything else in
// this folder is the area's own.
export { registerSessionRoutes, type SessionRouteDeps } from './routes.ts';
export { sessionPrincipals } from './sessions.ts';
export { mintSignInLink, SIGN_IN_MAIL_QUEUE } from './sign-in.ts';
export { signInMailQueue } from './sign-in-mail.ts';
export { sessionPurgeChore } from './purge-chore.ts';
