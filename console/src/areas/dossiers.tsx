// Dossiers: the list and one dossier (/console/dossiers, /console/dossiers/<id>). They are
// generated from a case page (pages/dossier-generate.tsx).
import { useParams } from '@tanstack/react-router';
import { DossierDetailPage, DossiersPage } from '../pages/dossiers';
import type { ConsoleArea } from './types';

function DossierRoute() {
  const { id } = useParams({ strict: false }) as { id?: string };
  return <DossierDetailPage key={id} id={id!} />;
}

export const dossiersArea: ConsoleArea = {
  nav: [{ to: '/dossiers', label: 'Dossiers', roles: ['admin', 'analyst'] }],
  routes: [
    { path: '/dossiers', component: DossiersPage },
    { path: '/dossiers/$id', component: DossierRoute },
  ],
};
