// Every console area beyond the shell's own pages (one import per area, in navigation order).
import { adminArea } from './admin';
import type { ConsoleArea } from './types';

export const AREAS: ConsoleArea[] = [adminArea];
