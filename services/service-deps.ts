// What a use case may use: built once per process by the composition root (app/), handed to the
// API's route handlers, the CLI's commands and the workers. A use case takes the subset it needs
// (`Pick<ServiceDeps, 'knex' | 'temporal'>`), so a test can call it with just those.
import type { Client } from '@temporalio/client';
import type { Knex } from 'knex';
import type { AppConfig } from '../config/config';
import type { BlobStore } from '../infra/blob-store';
import type { Logger } from '../infra/logger';

export interface ServiceDeps {
  config: AppConfig;
  knex: Knex;
  temporal: Client;
  log: Logger;
  /** The blob store (local directory or S3, per SVC_BLOBS__URL); no use case picks one itself. */
  blobs: BlobStore;
}
