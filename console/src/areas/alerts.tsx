// The alerts area: the caller's alerts and watchlists (views 'alerts' and 'watchlists').
import { AlertsPage, WatchlistsPage } from '../pages/alerts';
import type { ConsoleArea } from './types';

export const alertsArea: ConsoleArea = {
  nav: [
    { to: '/alerts', label: 'Alerts', roles: ['admin', 'analyst', 'reviewer'] },
    { to: '/watchlists', label: 'Watchlists', roles: ['admin', 'analyst', 'reviewer'] },
  ],
  routes: [
    { path: '/alerts', component: AlertsPage },
    { path: '/watchlists', component: WatchlistsPage },
  ],
};
