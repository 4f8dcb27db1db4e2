// What other areas may use of Tracking. Everything else in this folder is the area's own.
export { registerTrackingRoutes, type TrackingDeps } from './routes.ts';
export type { TrackingWriters, TrackedOpen, TrackedClick } from './tracking-writers.ts';
export { addTracking, NO_TRACK_ATTRIBUTE, type HtmlTracking } from './rewrite-html.ts';
export { OPEN_PATH, CLICK_PATH, type TrackedEmail } from './tokens.ts';
