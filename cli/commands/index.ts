import type { Command } from 'commander';
import { register as registerBlobs } from './blobs';
import { register as registerDb } from './db';
import { register as registerEvidence } from './evidence';
import { register as registerJobs } from './jobs';
import { register as registerKeys } from './keys';
import { register as registerSetup } from './setup';
import { register as registerSsiWallet } from './ssi-wallet';
import { register as registerUsers } from './users';
import { register as registerVault } from './vault';

/** Every command group of `fip`, in help order. */
export function registerCommandGroups(program: Command): void {
  registerDb(program);
  registerUsers(program);
  registerKeys(program);
  registerJobs(program);
  registerSetup(program);
  registerBlobs(program);
  registerSsiWallet(program);
  registerVault(program);
  registerEvidence(program);
}
