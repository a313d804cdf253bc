// The graph explorer's area: /console/graph (every role; researchers seed by entity id).
import { GraphPage } from '../pages/graph';
import type { ConsoleArea } from './types';

export const graphArea: ConsoleArea = {
  nav: [{ to: '/graph', label: 'Graph', roles: ['admin', 'analyst', 'researcher', 'reviewer'] }],
  routes: [{ path: '/graph', component: GraphPage }],
};
