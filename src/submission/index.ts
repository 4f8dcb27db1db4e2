// What the processes use of SMTP submission (services.ts): the listener, its certificate, the lockout.
export { AuthLockout } from './auth-lockout.ts';
export { startSubmissionListener, type SubmissionListener, type SubmissionListenerDeps } from './listener.ts';
export { submissionTls, type SubmissionTls } from './tls-certificate.ts';
export { startSubmission, submissionBanner, submissionBatching, type StartedSubmission } from './start.ts';
