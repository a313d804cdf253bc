import type { Knex } from 'knex';
import type { Client } from '@temporalio/client';
import type { AppConfig } from '../config/config';
import type { Logger } from '../infra/logger';

/** What route handlers may use. Built once per process by the entry point (or a test). */
export interface AppDeps {
  config: AppConfig;
  knex: Knex;
  temporal: Client;
  log: Logger;
}
