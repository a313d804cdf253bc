import type { Knex } from 'knex';
import type { Client } from '@temporalio/client';
import type { AppConfig } from '../config/config';
import type { BlobStore } from '../infra/blob-store';
import type { Logger } from '../infra/logger';

/** What route handlers may use. Built once per process by the entry point (or a test). */
export interface AppDeps {
  config: AppConfig;
  knex: Knex;
  temporal: Client;
  log: Logger;
  /** The blob store (local directory or S3, per SVC_BLOBS__URL); routes never pick one themselves. */
  blobs: BlobStore;
}
