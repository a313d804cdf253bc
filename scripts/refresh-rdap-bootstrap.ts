// Refreshes domain/takedowns/rdap-bootstrap.json, the pinned copy of the IANA RDAP bootstrap
// registries (RFC 9224) that takedown look-ups use: `dns.json`, `ipv4.json` and `ipv6.json` under
// SVC_TAKEDOWN__RDAP_BOOTSTRAP_URL (default https://data.iana.org/rdap/). Each file must parse and
// name services, or nothing is written. Review the diff and commit it.
//   npm run -s takedowns:refresh-rdap-bootstrap
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../config/config';
import type { IanaBootstrapFile, RdapBootstrap } from '../domain/takedowns/rdap';

const TARGET = path.join(__dirname, '..', 'domain', 'takedowns', 'rdap-bootstrap.json');

async function fetchFile(base: string, name: string): Promise<IanaBootstrapFile> {
  const url = new URL(name, base.endsWith('/') ? base : `${base}/`).href;
  const res = await fetch(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(60_000) });
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
  const file = (await res.json()) as IanaBootstrapFile;
  if (!Array.isArray(file.services) || file.services.length === 0) throw new Error(`${url}: no services`);
  return file;
}

async function main(): Promise<void> {
  const base = loadConfig().takedown.rdap_bootstrap_url;
  const [dns, ipv4, ipv6] = await Promise.all(['dns.json', 'ipv4.json', 'ipv6.json'].map((n) => fetchFile(base, n)));
  const out: RdapBootstrap = { fetched_from: base, fetched_at: new Date().toISOString(), dns, ipv4, ipv6 };
  fs.writeFileSync(TARGET, `${JSON.stringify(out, null, 1)}\n`);
  process.stdout.write(`${TARGET}: ${dns.services.length} DNS, ${ipv4.services.length} IPv4, ${ipv6.services.length} IPv6 services (published ${dns.publication})\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`refresh-rdap-bootstrap: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
