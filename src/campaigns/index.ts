// What other areas may use of Campaigns. Everything else in this folder is the area's own.
export { registerCampaignRoutes } from './routes.ts';
export { campaignContactHooks, campaignSegmentHooks } from './hooks.ts';
export { campaignFanoutQueue, CAMPAIGN_FANOUT_QUEUE } from './fanout.ts';
