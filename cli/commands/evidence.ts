import fs from 'node:fs';
import type { Command } from 'commander';
import { CliUsageError } from '../cli-errors';

/** One line on the package's RFC 3161 token: the time it vouches for, and whether its chain was checked. */
function trustedTimeLine(t: { status: string; gen_time: string | null; chain: string; statement: string | null }): string {
  if (t.status === 'none') return `trusted time: none (${t.statement ?? 'no third-party timestamp'})`;
  if (t.status === 'invalid') return 'trusted time: INVALID token (see the problems above)';
  const chain = t.chain === 'verified' ? 'signature chain verified against --tsa-ca' : 'signature chain not checked (give --tsa-ca <the authority\'s CA>)';
  return `trusted time: ${t.gen_time} (RFC 3161 token over datapackage.json; ${chain})`;
}

export function register(program: Command): void {
  const evidence = program.command('evidence').description('Signed evidence packages: offline verification and the signing keys');
  evidence
    .command('verify')
    .description(
      'Verify an evidence bundle, LEA package or dossier (a .zip/.wacz file or an extracted directory) offline: every file against ' +
        'datapackage.json, that manifest against its signed digest, the Ed25519 signature. Prints each file and its verdict; exit 0 valid, 1 invalid',
    )
    .argument('<zip|dir>', 'the package file or directory')
    .option('--public-key <pem-file...>', 'trust only these public keys (PEM files); a package signed by another key is invalid')
    .option('--keyring', "trust only this platform's signing keys (the keyring or SVC_EVIDENCE__SIGNING_KEY and _PREVIOUS_PUBLIC_KEYS)")
    .option('--tsa-ca <pem-file>', "the time-stamping authority's CA certificate (from the authority): the RFC 3161 token's signature chain is checked too")
    .option('--json', 'print the verdict as JSON ({valid, key_id, artifacts, problems, timestamp})')
    .action(async (target: string, options: { publicKey?: string[]; keyring?: boolean; tsaCa?: string; json?: boolean }) => {
      if (!fs.existsSync(target)) throw new CliUsageError(`${target} does not exist`);
      if (options.tsaCa && !fs.existsSync(options.tsaCa)) throw new CliUsageError(`--tsa-ca ${options.tsaCa} does not exist`);
      const { verifyPackage } = await import('../../services/evidence/evidence-verification');
      let trustedKeys: Map<string, string> | undefined;
      if (options.publicKey?.length || options.keyring) {
        const { parsePublicKey, publicKeyPem, signingKeyId } = await import('../../domain/evidence/signing-key');
        trustedKeys = new Map();
        for (const file of options.publicKey ?? []) {
          let key;
          try {
            key = parsePublicKey(fs.readFileSync(file, 'utf8'));
          } catch {
            throw new CliUsageError(`--public-key ${file}: not a readable Ed25519 public key (PEM)`);
          }
          trustedKeys.set(signingKeyId(key), publicKeyPem(key));
        }
        if (options.keyring) {
          const { cliConfig } = await import('../cli-config');
          const { evidenceKeyringFor } = await import('../../infra/evidence-keyring');
          for (const [id, pem] of evidenceKeyringFor(cliConfig()).trustedKeys()) trustedKeys.set(id, pem);
        }
      }
      const result = await verifyPackage(target, { trustedKeys, tsaCaFile: options.tsaCa });
      if (options.json) {
        process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
      } else {
        for (const artifact of result.artifacts) {
          process.stdout.write(`${artifact.ok ? 'OK     ' : 'FAILED '} ${artifact.name}  ${artifact.sha256}\n`);
        }
        for (const problem of result.problems) process.stdout.write(`problem: ${problem.file}: ${problem.message}\n`);
        process.stdout.write(`${trustedTimeLine(result.timestamp)}\n`);
        const keyNote = trustedKeys ? 'a trusted key' : 'the public key enclosed in the package (pin one with --public-key)';
        process.stdout.write(
          result.valid
            ? `VALID: every file matches the manifest, signed by ${result.key_id} with ${keyNote}\n`
            : `INVALID: ${result.problems.length} problem(s)${result.key_id ? `; signed as ${result.key_id}` : ''}\n`,
        );
      }
      if (!result.valid) process.exitCode = 1;
    });

  const keys = evidence.command('keys').description('The Ed25519 keys that sign evidence packages');
  keys
    .command('list')
    .description('Every signing key (active first) with its key id; old public keys stay so old packages verify')
    .option('--json', 'print JSON, public keys included')
    .action(async (options: { json?: boolean }) => {
      const { cliConfig } = await import('../cli-config');
      const { evidenceKeyringFor } = await import('../../infra/evidence-keyring');
      const list = evidenceKeyringFor(cliConfig()).list().sort((a, b) => Number(b.active) - Number(a.active));
      if (options.json) {
        process.stdout.write(`${JSON.stringify(list, null, 2)}\n`);
        return;
      }
      for (const k of list) {
        process.stdout.write(`${k.key_id}  ${k.active ? 'active ' : 'retired'}  ${k.source}  created ${k.created_at ?? '-'}  retired ${k.retired_at ?? '-'}\n`);
      }
    });
  keys
    .command('rotate')
    .description('Make a fresh key active (keyring only); earlier public keys are kept, their private keys dropped')
    .action(async () => {
      const { cliConfig } = await import('../cli-config');
      const { evidenceKeyringFor } = await import('../../infra/evidence-keyring');
      const keyring = evidenceKeyringFor(cliConfig());
      const previous = keyring.activeKeyId();
      const id = keyring.rotate();
      process.stdout.write(`${JSON.stringify({ active: id, previous }, null, 2)}\n`);
    });
  keys
    .command('export-public')
    .description('Print the active public key (PEM), for an agency to pin with `fip evidence verify --public-key`')
    .action(async () => {
      const { cliConfig } = await import('../cli-config');
      const { evidenceKeyringFor } = await import('../../infra/evidence-keyring');
      process.stdout.write(evidenceKeyringFor(cliConfig()).signer().publicKeyPem);
    });
}
