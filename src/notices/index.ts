// What other areas may use of Notices. Everything else in this folder is the area's own.
export { actingKey, describeKey, queueTeamNotice, TEAM_NOTICES_QUEUE } from './team-notices.ts';
export { teamNoticesQueue } from './notices-queue.ts';
