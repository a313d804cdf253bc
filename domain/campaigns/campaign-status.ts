// A campaign's life cycle: active (the actors are operating), dormant (quiet, may resume), closed.

export const CAMPAIGN_STATUSES = ['active', 'dormant', 'closed'] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];
