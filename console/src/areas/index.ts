// Every console area beyond the shell's own pages (one import per area, in navigation order).
import type { ConsoleArea } from './types';
import { taxonomyArea } from './taxonomy';

export const AREAS: ConsoleArea[] = [taxonomyArea];
