// All activities of the platform, built from their dependencies (createXActivities(deps)).
// Workflows proxy them with `import type` so that no Node module enters workflow code.
import type { Knex } from 'knex';
import type { Client } from '@temporalio/client';
import type { AppConfig } from '../config/config';
import type { Logger } from '../infra/logger';

export interface ActivityDeps {
  config: AppConfig;
  knex: Knex;
  temporal: Client;
  log: Logger;
}

export function createActivities(_deps: ActivityDeps) {
  return {};
}

export type PlatformActivities = ReturnType<typeof createActivities>;
