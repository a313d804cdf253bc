// Loader of config/wallet_allowlist.json (stage 3 of wallet extraction). The file is validated with
// a schema when loaded; a malformed file fails with a message naming the bad entry (index and field).
// The CLI reads it on every run; a server process reads it once at start-up.
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { COSMOS_CHAINS } from '../domain/wallets/cosmos-chains';
import { isNetworkId, networkInfo, NETWORKS } from '../domain/wallets/network-catalog';
import type { AllowlistPair, NetworkId } from '../domain/wallets/wallet-types';

export class AllowlistError extends Error {
  override name = 'AllowlistError';
}

/**
 * `{ "token": "*", "network": "cosmos-*" }`: the native coin of every Cosmos-SDK chain of the pinned
 * chain registry (domain/wallets/cosmos-chains.ts), one pair each.
 */
const REGISTRY_NETWORKS = 'cosmos-*';

const pairSchema = z.strictObject({
  token: z.string().regex(/^(?:[A-Z0-9.]{2,10}|\*)$/, 'a token symbol in upper case (2-10 characters), or * with network cosmos-*'),
  network: z.string().refine((n) => isNetworkId(n) || n === REGISTRY_NETWORKS, { message: `a network id, one of: ${NETWORKS.filter((n) => !n.registry).map((n) => n.id).join(', ')}, cosmos-<chain name>, or cosmos-* with token *` }),
  note: z.string().optional(),
}).superRefine((p, ctx) => {
  if ((p.token === '*') !== (p.network === REGISTRY_NETWORKS)) {
    ctx.addIssue({ code: 'custom', path: ['token'], message: 'token * goes only with network cosmos-* (the native coin of every Cosmos-SDK chain of the registry)' });
    return;
  }
  if (isNetworkId(p.network) && !networkInfo(p.network).tokens.includes(p.token)) {
    ctx.addIssue({ code: 'custom', path: ['token'], message: `token ${p.token} is not recognised on ${p.network} (known: ${networkInfo(p.network).tokens.join(', ')})` });
  }
});

const fileSchema = z.strictObject({
  version: z.literal(1),
  description: z.string().optional(),
  pairs: z.array(pairSchema).min(1),
});

export interface Allowlist {
  path: string;
  pairs: AllowlistPair[];
}

function describeIssue(issue: z.core.$ZodIssue, data: unknown): string {
  const [first, index, field] = issue.path;
  if (first === 'pairs' && typeof index === 'number') {
    const entry = Array.isArray((data as { pairs?: unknown[] })?.pairs) ? (data as { pairs: unknown[] }).pairs[index] : undefined;
    const where = `pairs[${index}]${field !== undefined ? `.${String(field)}` : ''}`;
    return `entry ${where} (${JSON.stringify(entry)}): ${issue.message}`;
  }
  return `${issue.path.length ? issue.path.join('.') : '(root)'}: ${issue.message}`;
}

/** Parses and validates allowlist JSON text; `source` names the file in error messages. */
export function parseAllowlist(text: string, source = 'wallet allowlist'): AllowlistPair[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new AllowlistError(`${source}: not valid JSON (${err instanceof Error ? err.message : String(err)})`);
  }
  const parsed = fileSchema.safeParse(data);
  if (!parsed.success) {
    throw new AllowlistError(`${source} is invalid:\n${parsed.error.issues.map((i) => `  ${describeIssue(i, data)}`).join('\n')}`);
  }
  const seen = new Set<string>();
  const pairs: AllowlistPair[] = [];
  parsed.data.pairs.forEach((p, i) => {
    const expanded = p.network === REGISTRY_NETWORKS ? COSMOS_CHAINS.map((c) => ({ token: c.native, network: c.id as NetworkId })) : [{ token: p.token, network: p.network as NetworkId }];
    for (const e of expanded) {
      const key = `${e.token}|${e.network}`;
      if (seen.has(key)) throw new AllowlistError(`${source} is invalid:\n  entry pairs[${i}] (${JSON.stringify(p)}): duplicate of an earlier pair`);
      seen.add(key);
      pairs.push(e);
    }
  });
  return pairs;
}

/** Reads and validates the allowlist file (relative paths resolve from the working directory). */
export function loadWalletAllowlist(filePath: string): Allowlist {
  const resolved = path.resolve(filePath);
  let text: string;
  try {
    text = fs.readFileSync(resolved, 'utf8');
  } catch (err) {
    throw new AllowlistError(`cannot read wallet allowlist ${resolved}: ${err instanceof Error ? err.message : String(err)}`);
  }
  return { path: resolved, pairs: parseAllowlist(text, resolved) };
}
