// Case work: the intake form, creating and editing cases (the intake and case pages themselves are
// the shell's /intakes/$id and /cases/$id).
import { useParams } from '@tanstack/react-router';
import { CaseEditPage, CaseNewPage } from '../pages/case-edit';
import { IntakeFormPage } from '../pages/intake-form';
import type { ConsoleArea } from './types';

function CaseEditRoute() {
  const { id } = useParams({ strict: false }) as { id?: string };
  return <CaseEditPage key={id} id={id!} />;
}

export const caseWorkArea: ConsoleArea = {
  routes: [
    { path: '/intakes/new', component: IntakeFormPage },
    { path: '/cases/new', component: CaseNewPage },
    { path: '/cases/$id/edit', component: CaseEditRoute },
  ],
};
