// What a console area (one feature's pages) contributes to the shell: its navigation items and its
// routes. App.tsx joins every area listed in areas/index.ts, so a feature adds its pages in a file
// of its own instead of editing the shell.
import type { ReactNode } from 'react';
import type { Role } from '../types';

export interface NavItem {
  /** Path below /console. */
  to: string;
  label: string;
  /** Roles that see the item; the API decides what they may do. */
  roles: Role[];
}

export interface AreaRoute {
  /** A TanStack Router path below /console, e.g. '/campaigns/$id' (its first segment must be one of CONSOLE_VIEWS of the API). */
  path: string;
  component: () => ReactNode;
}

export interface ConsoleArea {
  nav?: NavItem[];
  routes: AreaRoute[];
}
