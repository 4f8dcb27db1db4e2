// What other parts may use of Sessions (the dashboard's sign-in and sessions). Everything else in
// this folder is the area's own.
export { registerSessionRoutes, type SessionRouteDeps } from './routes.ts';
export { sessionPrincipals } from './sessions.ts';
// queueSignIn: an invite (accounts, through app.ts) queues its member's sign-in mail in its own transaction.
export { mintSignInLink, queueSignIn, SIGN_IN_MAIL_QUEUE, type SignInInvite, type SignInQueueDeps } from './sign-in.ts';
export { signInMailQueue } from './sign-in-mail.ts';
export { sessionPurgeChore } from './purge-chore.ts';
