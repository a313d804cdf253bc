// The takedowns area: abuse reports to approve, send and watch (view 'takedowns').
import { TakedownsPage } from '../pages/takedowns';
import type { ConsoleArea } from './types';

export const takedownsArea: ConsoleArea = {
  nav: [{ to: '/takedowns', label: 'Takedowns', roles: ['admin', 'analyst'] }],
  routes: [{ path: '/takedowns', component: TakedownsPage }],
};
