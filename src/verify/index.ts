// What other areas may use of one-time codes. Everything else in this folder is the area's own.
export { registerVerifyRoutes } from './routes.ts';
export { verifyDeps, type VerifyDeps } from './send.ts';
