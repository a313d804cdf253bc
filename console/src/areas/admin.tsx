// Administration (admins): users and roles, API keys, the audit log and the SSI playbooks, under
// /console/admin/<section> (the section is the third URL segment; a playbook's id the fourth).
import { AdminPage } from '../pages/admin';
import type { ConsoleArea } from './types';

export const adminArea: ConsoleArea = {
  nav: [{ to: '/admin', label: 'Administration', roles: ['admin'] }],
  routes: [
    { path: '/admin', component: AdminPage },
    { path: '/admin/$section', component: AdminPage },
    { path: '/admin/$section/$id', component: AdminPage },
  ],
};
