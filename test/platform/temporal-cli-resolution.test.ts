// `npx fip setup temporal-cli` (the same resolution as `npm start`): the fast sources first (PATH,
// cache, a download of the release), the Go build last; a download that cannot finish gives up
// within its bound; an archive that fails its checks never reaches the cache. Real processes, a
// temporary XDG_CACHE_HOME, a loopback HTTP server for the release, fake `temporal` and `go` scripts.
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import tar from 'tar-stream';
import { TEMPORAL_CLI_VERSION, temporalArchiveName, temporalReleasePlatform } from '../../infra/temporal-cli';
import { freePort } from '../support/free-port';
import { runCli, type CliResult } from '../support/run-cli';

const PLATFORM = temporalReleasePlatform();
const ARCHIVE = PLATFORM ? temporalArchiveName(PLATFORM) : '';
const RELEASE = `/v${TEMPORAL_CLI_VERSION}`;
const GO_PACKAGE = `github.com/temporalio/cli/cmd/temporal@v${TEMPORAL_CLI_VERSION}`;

const dirs: string[] = [];
function tempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

function writeScript(file: string, body: string): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
  return file;
}

const fakeTemporal = (version: string, tag: string) => `echo "temporal version ${version} (${tag})"`;

/** A directory with a fake `go` that "builds" the CLI into $GOBIN in no time and logs its arguments to $FAKE_GO_LOG. */
function fakeGoBin(): { dir: string; log: string } {
  const dir = tempDir('fip-fake-go-');
  writeScript(
    path.join(dir, 'go'),
    [
      'case "$1" in',
      '  version) echo "go version go0.0-fake";;',
      `  install) echo "$@" >> "$FAKE_GO_LOG"; printf '#!/bin/sh\\necho "temporal version 0.0.0-DEV (fake go)"\\n' > "$GOBIN/temporal"; chmod 755 "$GOBIN/temporal";;`,
      '  *) exit 2;;',
      'esac',
    ].join('\n'),
  );
  return { dir, log: path.join(dir, 'go.log') };
}

async function tarGz(entries: Array<{ name: string; body: string; mode?: number }>): Promise<Buffer> {
  const pack = tar.pack();
  for (const e of entries) pack.entry({ name: e.name, mode: e.mode ?? 0o644 }, e.body);
  pack.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of pack) chunks.push(chunk as Buffer);
  return zlib.gzipSync(Buffer.concat(chunks));
}

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const checksumsTxt = (entries: Record<string, Buffer>) =>
  Object.entries(entries)
    .map(([name, bytes]) => `${sha256(bytes)}  ${name}\n`)
    .join('');

/** A release mirror on 127.0.0.1: serves `files` by path (404 otherwise), or hands each request to `handler`. */
async function releaseServer(files: Record<string, string | Buffer>, handler?: http.RequestListener): Promise<{ url: string; requests: string[]; close(): Promise<void> }> {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push(req.url ?? '');
    if (handler) return handler(req, res);
    const body = files[req.url ?? ''];
    if (body === undefined) {
      res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return {
    url,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

interface Run extends CliResult {
  ms: number;
}

/** `fip setup temporal-cli` with only `binDirs` (then /usr/bin:/bin) on PATH, the given cache and download URL. */
async function setupTemporalCli(opts: { cacheHome: string; downloadUrl: string; binDirs?: string[]; env?: Record<string, string> }): Promise<Run> {
  const started = Date.now();
  const r = await runCli(['setup', 'temporal-cli'], {
    env: {
      PATH: [...(opts.binDirs ?? []), '/usr/bin', '/bin'].join(path.delimiter),
      XDG_CACHE_HOME: opts.cacheHome,
      TEMPORAL_CLI_PATH: '',
      TEMPORAL_CLI_DOWNLOAD_URL: opts.downloadUrl,
      ...opts.env,
    },
  });
  return { ...r, ms: Date.now() - started };
}

const cachedCli = (cacheHome: string) => path.join(cacheHome, 'fip', `temporal-${TEMPORAL_CLI_VERSION}`, 'temporal');
const sourceLine = (r: CliResult) => /^Temporal CLI: (.+) \((.+)\)$/m.exec(r.stderr)?.slice(1) ?? [];
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('Temporal CLI resolution (fip setup temporal-cli)', function () {
  this.timeout(60_000);

  before(function () {
    assert.ok(fs.existsSync('/bin/sh'), 'the fake executables are shell scripts');
    if (!PLATFORM) this.skip(); // no release archive for this platform: only PATH, cache and Go apply
  });

  after(() => {
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('names the release archive per platform the way the release does', () => {
    assert.equal(temporalReleasePlatform('linux', 'x64'), 'linux_amd64');
    assert.equal(temporalReleasePlatform('darwin', 'arm64'), 'darwin_arm64');
    assert.equal(temporalReleasePlatform('win32', 'x64'), null);
    assert.equal(temporalReleasePlatform('linux', 'ia32'), null);
    assert.equal(temporalArchiveName('linux_arm64'), `temporal_cli_${TEMPORAL_CLI_VERSION}_linux_arm64.tar.gz`);
  });

  it('takes a `temporal` on PATH before the cache and the download, and says "found on PATH"', async () => {
    const cacheHome = tempDir('fip-xdg-');
    writeScript(cachedCli(cacheHome), fakeTemporal(TEMPORAL_CLI_VERSION, 'cache'));
    const bin = tempDir('fip-bin-');
    const onPath = writeScript(path.join(bin, 'temporal'), fakeTemporal(TEMPORAL_CLI_VERSION, 'PATH'));
    const server = await releaseServer({});
    try {
      const r = await setupTemporalCli({ cacheHome, downloadUrl: server.url, binDirs: [bin] });
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, `${onPath}\n`);
      assert.deepEqual(sourceLine(r), [onPath, 'found on PATH']);
      assert.deepEqual(server.requests, [], 'nothing downloaded');
    } finally {
      await server.close();
    }
  });

  it('takes the cache before the download, and says "cache"', async () => {
    const cacheHome = tempDir('fip-xdg-');
    const cached = writeScript(cachedCli(cacheHome), fakeTemporal(TEMPORAL_CLI_VERSION, 'cache'));
    const server = await releaseServer({});
    try {
      const r = await setupTemporalCli({ cacheHome, downloadUrl: server.url, binDirs: [fakeGoBin().dir] });
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, `${cached}\n`);
      assert.deepEqual(sourceLine(r), [cached, 'cache']);
      assert.deepEqual(server.requests, [], 'nothing downloaded');
    } finally {
      await server.close();
    }
  });

  it('downloads the release archive into the cache, checked against its checksums.txt, says "downloaded from", and finds it in the cache the next time', async () => {
    const cacheHome = tempDir('fip-xdg-');
    const go = fakeGoBin();
    const archive = await tarGz([
      { name: 'LICENSE', body: 'MIT License\n' },
      { name: 'temporal', body: `#!/bin/sh\n${fakeTemporal(TEMPORAL_CLI_VERSION, 'downloaded')}\n`, mode: 0o755 },
    ]);
    const server = await releaseServer({
      [`${RELEASE}/${ARCHIVE}`]: archive,
      [`${RELEASE}/checksums.txt`]: checksumsTxt({ 'temporal_cli_0.0.0_plan9_mips.tar.gz': Buffer.from('other'), [ARCHIVE]: archive }),
    });
    try {
      const first = await setupTemporalCli({ cacheHome, downloadUrl: server.url, binDirs: [go.dir], env: { FAKE_GO_LOG: go.log } });
      assert.equal(first.code, 0, first.stderr);
      const cached = cachedCli(cacheHome);
      assert.equal(first.stdout, `${cached}\n`);
      assert.deepEqual(sourceLine(first), [cached, `downloaded from ${server.url}${RELEASE}/${ARCHIVE}`]);
      assert.match(first.stderr, /SHA-256 verified: temporal version 1\.5\.1 \(downloaded\)/);
      assert.deepEqual(server.requests, [`${RELEASE}/checksums.txt`, `${RELEASE}/${ARCHIVE}`]);
      assert.equal(fs.existsSync(go.log), false, 'no Go build');
      assert.equal(fs.statSync(cached).mode & 0o777, 0o755);
      assert.deepEqual(fs.readdirSync(path.join(cacheHome, 'fip')), [`temporal-${TEMPORAL_CLI_VERSION}`], 'no staging directory left');

      const second = await setupTemporalCli({ cacheHome, downloadUrl: server.url, binDirs: [go.dir] });
      assert.equal(second.code, 0, second.stderr);
      assert.equal(second.stdout, `${cached}\n`);
      assert.deepEqual(sourceLine(second), [cached, 'cache']);
      assert.equal(server.requests.length, 2, 'not downloaded again');
    } finally {
      await server.close();
    }
  });

  it('gives up on a download server that accepts but never answers within 5 s, then builds with Go and says "built with Go"', async () => {
    const cacheHome = tempDir('fip-xdg-');
    const go = fakeGoBin();
    const server = await releaseServer({}, () => undefined);
    try {
      const r = await setupTemporalCli({ cacheHome, downloadUrl: server.url, binDirs: [go.dir], env: { FAKE_GO_LOG: go.log } });
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stderr, /could not download the Temporal CLI \([\d.]+ s\): no response within 5 s/);
      assert.ok(r.ms < 15_000, `fell through after ${r.ms} ms`);
      const cached = cachedCli(cacheHome);
      assert.equal(r.stdout, `${cached}\n`);
      assert.deepEqual(sourceLine(r), [cached, 'built with Go']);
      assert.equal(fs.readFileSync(go.log, 'utf8').trim(), `install ${GO_PACKAGE}`);
      assert.match(r.stderr, /the Temporal CLI not found: building .* with go version go0\.0-fake/);
    } finally {
      await server.close();
    }
  });

  it('falls through to Go at once when nothing listens at the download address', async () => {
    const cacheHome = tempDir('fip-xdg-');
    const go = fakeGoBin();
    const r = await setupTemporalCli({ cacheHome, downloadUrl: `http://127.0.0.1:${await freePort()}`, binDirs: [go.dir], env: { FAKE_GO_LOG: go.log } });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /could not download the Temporal CLI .*ECONNREFUSED/);
    assert.ok(r.ms < 5_000, `fell through after ${r.ms} ms`);
    assert.deepEqual(sourceLine(r), [cachedCli(cacheHome), 'built with Go']);
  });

  it('gives up on a download whose body stops arriving for 10 s, then builds with Go', async () => {
    const cacheHome = tempDir('fip-xdg-');
    const go = fakeGoBin();
    const archive = await tarGz([{ name: 'temporal', body: `#!/bin/sh\n${fakeTemporal(TEMPORAL_CLI_VERSION, 'x')}\n`, mode: 0o755 }]);
    const server = await releaseServer({}, (req, res) => {
      if (req.url?.endsWith('/checksums.txt')) return res.end(checksumsTxt({ [ARCHIVE]: archive }));
      res.writeHead(200, { 'content-length': String(archive.length * 10) });
      res.write(archive.subarray(0, 20)); // then nothing
    });
    try {
      const r = await setupTemporalCli({ cacheHome, downloadUrl: server.url, binDirs: [go.dir], env: { FAKE_GO_LOG: go.log } });
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stderr, /could not download the Temporal CLI \([\d.]+ s\): stalled: no data for 10 s/);
      assert.ok(r.ms < 20_000, `fell through after ${r.ms} ms`);
      assert.deepEqual(sourceLine(r), [cachedCli(cacheHome), 'built with Go']);
    } finally {
      await server.close();
    }
  });

  describe('refuses an archive that fails its checks, and keeps nothing in the cache', () => {
    const good = () => tarGz([{ name: 'temporal', body: `#!/bin/sh\n${fakeTemporal(TEMPORAL_CLI_VERSION, 'x')}\n`, mode: 0o755 }]);
    const cases: Array<{ what: string; files: () => Promise<Record<string, Buffer>>; says: RegExp }> = [
      {
        what: 'an archive whose SHA-256 is not the one in checksums.txt',
        files: async () => {
          const archive = await good();
          const corrupt = Buffer.from(archive);
          corrupt[corrupt.length - 10] ^= 0xff;
          return { [ARCHIVE]: corrupt, 'checksums.txt': Buffer.from(checksumsTxt({ [ARCHIVE]: archive })) };
        },
        says: /SHA-256 mismatch: the archive has [0-9a-f]{64}, expected [0-9a-f]{64}/,
      },
      {
        what: 'bytes that match their SHA-256 but are not a .tar.gz',
        files: async () => {
          const garbage = Buffer.from('<html>not an archive</html>');
          return { [ARCHIVE]: garbage, 'checksums.txt': Buffer.from(checksumsTxt({ [ARCHIVE]: garbage })) };
        },
        says: /the archive is not a valid \.tar\.gz/,
      },
      {
        what: 'a truncated .tar.gz',
        files: async () => {
          const whole = await tarGz([{ name: 'temporal', body: randomBytes(200_000).toString('base64'), mode: 0o755 }]);
          const cut = whole.subarray(0, whole.length / 2);
          return { [ARCHIVE]: cut, 'checksums.txt': Buffer.from(checksumsTxt({ [ARCHIVE]: cut })) };
        },
        says: /the archive is not a valid \.tar\.gz/,
      },
      {
        what: 'an archive without a temporal executable',
        files: async () => {
          const archive = await tarGz([{ name: 'LICENSE', body: 'MIT\n' }]);
          return { [ARCHIVE]: archive, 'checksums.txt': Buffer.from(checksumsTxt({ [ARCHIVE]: archive })) };
        },
        says: /the archive has no temporal/,
      },
      {
        what: 'a temporal that reports another version',
        files: async () => {
          const archive = await tarGz([{ name: 'temporal', body: `#!/bin/sh\n${fakeTemporal('1.4.0', 'old')}\n`, mode: 0o755 }]);
          return { [ARCHIVE]: archive, 'checksums.txt': Buffer.from(checksumsTxt({ [ARCHIVE]: archive })) };
        },
        says: /`temporal --version` printed "temporal version 1\.4\.0 \(old\)", expected/,
      },
      {
        what: 'a temporal that does not run',
        files: async () => {
          const archive = await tarGz([{ name: 'temporal', body: '#!/bin/sh\nexit 3\n', mode: 0o755 }]);
          return { [ARCHIVE]: archive, 'checksums.txt': Buffer.from(checksumsTxt({ [ARCHIVE]: archive })) };
        },
        says: /`temporal --version` failed/,
      },
      {
        what: 'a checksums.txt that does not list the archive',
        files: async () => {
          const archive = await good();
          return { [ARCHIVE]: archive, 'checksums.txt': Buffer.from(checksumsTxt({ 'temporal_cli_0.0.0_plan9_mips.tar.gz': archive })) };
        },
        says: new RegExp(`checksums\\.txt lists no SHA-256 for ${escape(ARCHIVE)}`),
      },
    ];
    for (const c of cases) {
      it(c.what, async () => {
        const cacheHome = tempDir('fip-xdg-');
        const files = await c.files();
        const server = await releaseServer(Object.fromEntries(Object.entries(files).map(([name, body]) => [`${RELEASE}/${name}`, body])));
        try {
          // No Go on PATH: the command fails, so nothing but the download could have filled the cache.
          const r = await setupTemporalCli({ cacheHome, downloadUrl: server.url });
          assert.equal(r.code, 1, r.stderr);
          assert.equal(r.stdout, '');
          assert.match(r.stderr, c.says);
          assert.match(r.stderr, /no Temporal CLI, no download of it and no Go toolchain/);
          assert.equal(fs.existsSync(cachedCli(cacheHome)), false, 'nothing in the cache');
          assert.deepEqual(fs.existsSync(path.join(cacheHome, 'fip')) ? fs.readdirSync(path.join(cacheHome, 'fip')) : [], [], 'no staging directory left');
        } finally {
          await server.close();
        }
      });
    }
  });
});
