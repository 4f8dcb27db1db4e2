// What other parts may use of Journeys: its routes, its queue, and its answers to the contact hooks.
export { registerJourneyRoutes } from './routes.ts';
export { journeyRunsQueue, JOURNEY_RUNS_QUEUE } from './runner.ts';
export { journeyContactHooks, journeySegmentHooks } from './hooks.ts';
export { journeyEnrolmentsQueue, JOURNEY_ENROLMENTS_QUEUE } from './enrolment-queue.ts';
