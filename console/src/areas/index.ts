// Every console area beyond the shell's own pages (one import per area, in navigation order).
import type { ConsoleArea } from './types';
import { graphArea } from './graph';
import { campaignsArea } from './campaigns';
import { taxonomyArea } from './taxonomy';
import { caseWorkArea } from './case-work';
import { reviewsArea } from './reviews';
import { dossiersArea } from './dossiers';
import { alertsArea } from './alerts';
import { takedownsArea } from './takedowns';
import { adminArea } from './admin';

export const AREAS: ConsoleArea[] = [graphArea, campaignsArea, taxonomyArea, caseWorkArea, reviewsArea, dossiersArea, alertsArea, takedownsArea, adminArea];
