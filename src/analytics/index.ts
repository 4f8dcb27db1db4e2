// What other areas may use of Analytics: a campaign's email counts (campaigns/).
export { campaignCounts, deleteCampaignCounts, type CampaignCounts } from './queries.ts';
