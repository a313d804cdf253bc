// The intelligence views beside the dashboards: the taxonomy browser, the indicator registry and
// one indicator, and the exports and sharing page.
import { useParams } from '@tanstack/react-router';
import { ExportsPage } from '../pages/exports';
import { IndicatorDetailPage, IndicatorsPage } from '../pages/indicators';
import { TaxonomyPage } from '../pages/taxonomy';
import type { ConsoleArea } from './types';

function IndicatorRoute() {
  const { id } = useParams({ strict: false }) as { id?: string };
  return <IndicatorDetailPage key={id} id={id!} />;
}

export const taxonomyArea: ConsoleArea = {
  nav: [
    { to: '/taxonomy', label: 'Taxonomy', roles: ['admin', 'analyst', 'researcher', 'reviewer'] },
    { to: '/indicators', label: 'Indicators', roles: ['admin', 'analyst', 'researcher', 'reviewer'] },
    { to: '/exports', label: 'Exports', roles: ['admin', 'analyst', 'researcher', 'reviewer'] },
  ],
  routes: [
    { path: '/taxonomy', component: TaxonomyPage },
    { path: '/indicators', component: IndicatorsPage },
    { path: '/indicators/$id', component: IndicatorRoute },
    { path: '/exports', component: ExportsPage },
  ],
};
