// Every console area beyond the shell's own pages (one import per area, in navigation order).
import type { ConsoleArea } from './types';
import { alertsArea } from './alerts';

export const AREAS: ConsoleArea[] = [alertsArea];
