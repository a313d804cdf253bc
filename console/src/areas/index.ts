// Every console area beyond the shell's own pages (one import per area, in navigation order).
import type { ConsoleArea } from './types';
import { caseWorkArea } from './case-work';

export const AREAS: ConsoleArea[] = [caseWorkArea];
