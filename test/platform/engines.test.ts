// package.json promises a range of Node versions (engines.node). Every installed package, direct or
// nested, dependency or devDependency, must support every version of that promise and the Node
// running now; otherwise `npm ci` prints EBADENGINE and the promise is untrue. A new dependency that
// needs a newer Node fails here, naming the package and its range.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import semver from 'semver';

const ROOT = path.resolve(__dirname, '..', '..');

interface InstalledPackage {
  name: string;
  version: string;
  /** engines.node as the package declares it. */
  node: string;
  dir: string;
}

/** Every package under a node_modules tree (scoped and nested ones too) that declares engines.node. */
function installedPackages(nodeModules: string): InstalledPackage[] {
  const out: InstalledPackage[] = [];
  const visit = (dir: string) => {
    if (!fs.existsSync(dir)) return;
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.name.startsWith('.') || !(entry.isDirectory() || entry.isSymbolicLink())) continue;
      const full = path.join(dir, entry.name);
      if (entry.name.startsWith('@')) {
        visit(full);
        continue;
      }
      const manifest = path.join(full, 'package.json');
      if (fs.existsSync(manifest)) {
        const pkg = JSON.parse(fs.readFileSync(manifest, 'utf8')) as { name?: string; version?: string; engines?: { node?: unknown } };
        if (typeof pkg.engines?.node === 'string') out.push({ name: pkg.name ?? entry.name, version: pkg.version ?? '?', node: pkg.engines.node, dir: full });
      }
      if (!entry.isSymbolicLink()) visit(path.join(full, 'node_modules'));
    }
  };
  visit(nodeModules);
  return out;
}

/** The packages that do not support every Node version of `promise`, or not `current`, one line each. */
export function engineMismatches(promise: string, current: string, packages: InstalledPackage[]): string[] {
  const problems: string[] = [];
  for (const p of packages) {
    if (!semver.validRange(p.node)) {
      problems.push(`${p.name}@${p.version}: engines.node "${p.node}" is not a valid range`);
      continue;
    }
    if (!semver.subset(promise, p.node)) problems.push(`${p.name}@${p.version} needs node "${p.node}", narrower than package.json's "${promise}"`);
    else if (!semver.satisfies(current, p.node)) problems.push(`${p.name}@${p.version} needs node "${p.node}", not ${current} (EBADENGINE)`);
  }
  return problems;
}

describe('Node engines: every installed package supports the Node versions package.json promises', () => {
  const promise = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node;

  it('the promise is a valid range that holds the Node running the tests', () => {
    assert.ok(semver.validRange(promise), promise);
    assert.ok(semver.satisfies(process.version, promise), `${process.version} outside "${promise}"`);
  });

  it('no installed package needs a Node outside the promise (npm ci prints no EBADENGINE)', () => {
    const packages = installedPackages(path.join(ROOT, 'node_modules'));
    assert.ok(packages.length > 100, `read the engines of ${packages.length} packages`);
    for (const known of ['file-type', '@sparticuz/chromium', '@redocly/cli', 'mocha']) assert.ok(packages.some((p) => p.name === known), `${known}'s engines were read`);
    assert.deepEqual(engineMismatches(promise, process.version, packages), []);
  });

  it('the check itself fails on a package that needs a newer Node (the case of file-type 22 and unpdf 1.8)', () => {
    const fake = (name: string, node: string) => ({ name, version: '1.0.0', node, dir: '' });
    assert.deepEqual(engineMismatches('^20.19.0 || >=22.13.0', 'v20.20.2', [fake('a', '>=20'), fake('b', '>=22'), fake('c', '^20.19.0 || >=22.12.0')]), [
      'b@1.0.0 needs node ">=22", narrower than package.json\'s "^20.19.0 || >=22.13.0"',
    ]);
    assert.equal(engineMismatches('>=20.19', 'v20.20.2', [fake('d', '>=22.12.0 || >=20.19.0 <21.0.0')]).length, 1, 'Node 21 is promised but not supported');
    assert.match(engineMismatches('>=20', 'v20.20.2', [fake('e', 'twenty')])[0], /not a valid range/);
  });
});
