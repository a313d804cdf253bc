// The campaigns area: the list (/console/campaigns, filters in the URL) and one campaign
// (/console/campaigns/<id>). Campaigns are records: researchers get none (the API answers 403).
import { useParams } from '@tanstack/react-router';
import { CampaignDetailPage } from '../pages/campaign-detail';
import { CampaignsPage } from '../pages/campaigns';
import type { ConsoleArea } from './types';

function CampaignRoute() {
  const { id } = useParams({ strict: false }) as { id?: string };
  return <CampaignDetailPage key={id} id={id!} />;
}

export const campaignsArea: ConsoleArea = {
  nav: [{ to: '/campaigns', label: 'Campaigns', roles: ['admin', 'analyst', 'reviewer'] }],
  routes: [
    { path: '/campaigns', component: CampaignsPage },
    { path: '/campaigns/$id', component: CampaignRoute },
  ],
};
