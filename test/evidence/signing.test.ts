// Evidence signing: the Ed25519 keyring (created on first use, mode 0600, rotation keeping old public
// keys), the signed manifest (datapackage.json + datapackage-digest.json) and the offline verifier,
// pure and through `fip evidence verify` on a directory and on a ZIP.
import assert from 'node:assert/strict';
import { createHash, createPublicKey, generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ZipArchive } from 'archiver';
import { createSignedManifest, DIGEST_PATH, MANIFEST_PATH, type ManifestSigner } from '../../domain/evidence/package-manifest';
import { publicKeyPem, signingKeyId, signMessage } from '../../domain/evidence/signing-key';
import { verifyPackageContents, type PackageContents } from '../../domain/evidence/verify-package';
import { configuredEvidenceKeyring, evidenceKeyringPath, fileEvidenceKeyring } from '../../infra/evidence-keyring';
import { verifyPackage } from '../../services/evidence/evidence-verification';
import { runCli } from '../support/run-cli';

const CREATED = '2026-11-22T10:00:00.000Z';

function sha(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Writes a small signed package into a fresh directory; returns it and its files. */
function writePackage(signer: ManifestSigner, files: Record<string, Buffer>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fip-evidence-pkg-'));
  for (const [p, bytes] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, p)), { recursive: true });
    fs.writeFileSync(path.join(dir, p), bytes);
  }
  const signed = createSignedManifest(
    Object.entries(files).map(([p, bytes]) => ({ path: p, bytes: bytes.length, sha256: sha(bytes) })),
    signer,
    { created: CREATED, software: 'fip-test 1.0', title: 'test package' },
  );
  fs.writeFileSync(path.join(dir, MANIFEST_PATH), signed.manifestBytes);
  fs.writeFileSync(path.join(dir, DIGEST_PATH), signed.digestBytes);
  return dir;
}

const FILES = {
  'archive/data.warc.gz': Buffer.from('WARC/1.1 pretend record bytes'),
  'custody/custody.jsonl': Buffer.from('{"action":"capture"}\n'),
  'screenshots/page-1.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]),
};

async function zipDirectory(dir: string): Promise<string> {
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'fip-evidence-zip-')), 'package.zip');
  const archive = new ZipArchive({ zlib: { level: 6 } });
  const done = new Promise<void>((resolve, reject) => {
    const sink = fs.createWriteStream(out);
    sink.on('close', () => resolve());
    archive.on('error', reject);
    archive.pipe(sink);
  });
  archive.directory(dir, false);
  await archive.finalize();
  await done;
  return out;
}

describe('evidence signing and offline verification', function () {
  this.timeout(120_000);

  it('creates the keyring on first use with mode 0600 and a key id that is the public key fingerprint', () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fip-evidence-keys-'));
    const keyring = fileEvidenceKeyring(dataDir);
    const signer = keyring.signer();
    const file = evidenceKeyringPath(dataDir);
    assert.equal(fs.statSync(file).mode & 0o777, 0o600);
    assert.match(signer.keyId, /^ed25519:[0-9a-f]{32}$/);
    const rawOwn = Buffer.from(String(createPublicKey(signer.publicKeyPem).export({ format: 'jwk' }).x), 'base64url');
    assert.equal(rawOwn.length, 32);
    assert.equal(signer.keyId, `ed25519:${sha(rawOwn).slice(0, 32)}`);
    assert.equal(fileEvidenceKeyring(dataDir).activeKeyId(), signer.keyId, 'a second process reads the same keyring');
  });

  it('verifies an intact package and, after rotation, still trusts packages signed by the old key', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fip-evidence-keys-'));
    const keyring = fileEvidenceKeyring(dataDir);
    const oldId = keyring.activeKeyId();
    const dir = writePackage(keyring.signer(), FILES);
    const ok = await verifyPackage(dir, { trustedKeys: keyring.trustedKeys() });
    assert.deepEqual(ok.problems, []);
    assert.equal(ok.valid, true);
    assert.equal(ok.key_id, oldId);
    assert.deepEqual(ok.artifacts.map((a) => a.name).sort(), [DIGEST_PATH, MANIFEST_PATH, ...Object.keys(FILES)].sort());
    assert.ok(ok.artifacts.every((a) => a.ok));

    const newId = keyring.rotate();
    assert.notEqual(newId, oldId);
    assert.equal(keyring.activeKeyId(), newId);
    const listed = keyring.list();
    assert.deepEqual(listed.map((k) => [k.key_id, k.active, k.can_sign]).sort(), [[oldId, false, false], [newId, true, true]].sort());
    assert.equal(fs.readFileSync(evidenceKeyringPath(dataDir), 'utf8').match(/PRIVATE KEY-----\\n/g)?.length, 2, 'only the active private key is kept (BEGIN and END once)');
    const after = await verifyPackage(dir, { trustedKeys: fileEvidenceKeyring(dataDir).trustedKeys() });
    assert.equal(after.valid, true, JSON.stringify(after.problems));
    assert.equal(keyring.signer().keyId, newId, 'new packages are signed by the new key');
  });

  it('names an unknown key id when the package is signed by a key outside the trusted set', async () => {
    const stranger = fileEvidenceKeyring(fs.mkdtempSync(path.join(os.tmpdir(), 'fip-evidence-keys-')));
    const ours = fileEvidenceKeyring(fs.mkdtempSync(path.join(os.tmpdir(), 'fip-evidence-keys-')));
    const dir = writePackage(stranger.signer(), FILES);
    const result = await verifyPackage(dir, { trustedKeys: ours.trustedKeys() });
    assert.equal(result.valid, false);
    assert.deepEqual(result.problems.map((p) => [p.file, p.code]), [[DIGEST_PATH, 'unknown_key_id']]);
    assert.equal(result.key_id, stranger.activeKeyId());
  });

  it('a configured PEM key signs, and the public keys of earlier keys still verify', async () => {
    const old = generateKeyPairSync('ed25519');
    const current = generateKeyPairSync('ed25519');
    const oldSigner: ManifestSigner = { keyId: signingKeyId(old.publicKey), publicKeyPem: publicKeyPem(old.publicKey), sign: (m) => signMessage(old.privateKey, m) };
    const dir = writePackage(oldSigner, FILES);
    const keyFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'fip-evidence-pem-')), 'signing.pem');
    fs.writeFileSync(keyFile, current.privateKey.export({ format: 'pem', type: 'pkcs8' }), { mode: 0o600 });
    const configured = configuredEvidenceKeyring(keyFile, [publicKeyPem(old.publicKey)]);
    assert.equal(configured.activeKeyId(), signingKeyId(current.publicKey));
    assert.equal((await verifyPackage(dir, { trustedKeys: configured.trustedKeys() })).valid, true);
    const withoutOld = configuredEvidenceKeyring(current.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(), []);
    assert.equal((await verifyPackage(dir, { trustedKeys: withoutOld.trustedKeys() })).valid, false);
    assert.throws(() => configured.rotate(), /SVC_EVIDENCE__SIGNING_KEY/);
    assert.throws(() => configuredEvidenceKeyring(generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(), []), /not Ed25519/);
  });

  it('detects and names a flip of every single byte of the manifest and of the signed digest', () => {
    const keyring = fileEvidenceKeyring(fs.mkdtempSync(path.join(os.tmpdir(), 'fip-evidence-keys-')));
    const signed = createSignedManifest(
      Object.entries(FILES).map(([p, bytes]) => ({ path: p, bytes: bytes.length, sha256: sha(bytes) })),
      keyring.signer(),
      { created: CREATED, software: 'fip-test 1.0' },
    );
    const files = Object.entries(FILES).map(([p, bytes]) => ({ path: p, bytes: bytes.length, sha256: sha(bytes) }));
    const base: PackageContents = { manifestBytes: signed.manifestBytes, digestBytes: signed.digestBytes, files };
    assert.equal(verifyPackageContents(base, { trustedKeys: keyring.trustedKeys() }).valid, true);
    for (const which of ['manifestBytes', 'digestBytes'] as const) {
      const name = which === 'manifestBytes' ? MANIFEST_PATH : DIGEST_PATH;
      for (let i = 0; i < base[which]!.length; i++) {
        const tampered = Buffer.from(base[which]!);
        tampered[i] ^= 0x01;
        const result = verifyPackageContents({ ...base, [which]: tampered }, { trustedKeys: keyring.trustedKeys() });
        assert.equal(result.valid, false, `${name} byte ${i} flipped went unnoticed`);
        assert.ok(result.problems.some((p) => p.file === name), `${name} byte ${i}: problems name ${JSON.stringify(result.problems.map((p) => p.file))}`);
        assert.equal(result.artifacts.find((a) => a.name === name)?.ok, false, `${name} byte ${i}: its artifact verdict`);
      }
    }
    // Even with no trusted set (the embedded key), a flipped digest byte fails.
    const loose = Buffer.from(base.digestBytes!);
    loose[loose.indexOf('"signature": "') + 20] ^= 0x01;
    assert.equal(verifyPackageContents({ ...base, digestBytes: loose }).valid, false);
  });

  it('fip evidence verify: exit 0 and every file OK on a directory and a ZIP; exit 1 naming a changed, a missing and an extra file', async () => {
    const keyring = fileEvidenceKeyring(fs.mkdtempSync(path.join(os.tmpdir(), 'fip-evidence-keys-')));
    const dir = writePackage(keyring.signer(), FILES);
    const good = await runCli(['evidence', 'verify', dir]);
    assert.equal(good.code, 0, good.stdout + good.stderr);
    for (const p of [...Object.keys(FILES), MANIFEST_PATH, DIGEST_PATH]) assert.match(good.stdout, new RegExp(`^OK +${p.replace(/\./g, '\\.')} `, 'm'));
    assert.match(good.stdout, new RegExp(`VALID: .* ${keyring.activeKeyId()}`));

    const zip = await zipDirectory(dir);
    const goodZip = await runCli(['evidence', 'verify', zip, '--json']);
    assert.equal(goodZip.code, 0, goodZip.stdout + goodZip.stderr);
    assert.equal(JSON.parse(goodZip.stdout).valid, true);

    const pemFile = path.join(dir, '..', `${path.basename(dir)}.pub.pem`);
    fs.writeFileSync(pemFile, keyring.signer().publicKeyPem);
    assert.equal((await runCli(['evidence', 'verify', dir, '--public-key', pemFile])).code, 0);

    const screenshot = path.join(dir, 'screenshots', 'page-1.png');
    const bytes = fs.readFileSync(screenshot);
    bytes[3] ^= 0x01;
    fs.writeFileSync(screenshot, bytes);
    fs.rmSync(path.join(dir, 'custody', 'custody.jsonl'));
    fs.writeFileSync(path.join(dir, 'custody', 'smuggled.txt'), 'not listed');
    const bad = await runCli(['evidence', 'verify', dir]);
    assert.equal(bad.code, 1, bad.stdout + bad.stderr);
    assert.match(bad.stdout, /^FAILED +screenshots\/page-1\.png /m);
    assert.match(bad.stdout, /^problem: screenshots\/page-1\.png: .*changed/m);
    assert.match(bad.stdout, /^problem: custody\/custody\.jsonl: .*missing/m);
    assert.match(bad.stdout, /^problem: custody\/smuggled\.txt: .*not listed/m);
    assert.match(bad.stdout, /INVALID: 3 problem/);
    assert.match(bad.stdout, /^OK +archive\/data\.warc\.gz /m, 'untouched files stay OK');
  });
});

describe('evidence signing configuration', () => {
  it('reads SVC_EVIDENCE__PREVIOUS_PUBLIC_KEYS as PEMs or as comma-separated paths, and redacts the signing key from logs', async () => {
    const { loadConfig } = await import('../../config/config');
    const { createLogger } = await import('../../infra/logger');
    const a = generateKeyPairSync('ed25519');
    const b = generateKeyPairSync('ed25519');
    const pems = `${publicKeyPem(a.publicKey)}${publicKeyPem(b.publicKey)}`;
    assert.deepEqual(loadConfig({ SVC_EVIDENCE__PREVIOUS_PUBLIC_KEYS: pems }).evidence.previous_public_keys, [publicKeyPem(a.publicKey).trim(), publicKeyPem(b.publicKey).trim()]);
    assert.deepEqual(loadConfig({ SVC_EVIDENCE__PREVIOUS_PUBLIC_KEYS: '/keys/a.pem, /keys/b.pem' }).evidence.previous_public_keys, ['/keys/a.pem', '/keys/b.pem']);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fip-evidence-cfg-'));
    fs.writeFileSync(path.join(dir, 'a.pem'), publicKeyPem(a.publicKey));
    const signing = b.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    const config = loadConfig({ SVC_EVIDENCE__SIGNING_KEY: signing, SVC_EVIDENCE__PREVIOUS_PUBLIC_KEYS: path.join(dir, 'a.pem'), SVC_DATA_DIR: dir });
    const keyring = configuredEvidenceKeyring(config.evidence.signing_key!, config.evidence.previous_public_keys);
    assert.deepEqual([...keyring.trustedKeys().keys()].sort(), [signingKeyId(a.publicKey), signingKeyId(b.publicKey)].sort());
    const lines: string[] = [];
    createLogger('info', 'test', { write: (l: string) => lines.push(l) }).info({ config }, 'config');
    assert.doesNotMatch(lines[0]!, /PRIVATE KEY/);
    assert.match(lines[0]!, /"signing_key":"\[redacted\]"/);
  });
});

describe('signed package writer', () => {
  it('stops reading its sources when the consumer goes away mid-package (a client disconnecting)', async () => {
    const { Readable } = await import('node:stream');
    const { signedZipStream } = await import('../../infra/signed-zip-writer');
    const keyring = fileEvidenceKeyring(fs.mkdtempSync(path.join(os.tmpdir(), 'fip-evidence-keys-')));
    let produced = 0;
    const endless = new Readable({
      read() {
        produced += 1;
        this.push(Buffer.alloc(64 * 1024, produced % 251));
      },
    });
    const sourceClosed = new Promise<void>((resolve) => endless.once('close', () => resolve()));
    const zip = signedZipStream([{ path: 'archive/endless.bin', open: () => endless }], {
      date: new Date(CREATED), signer: keyring.signer(), manifest: { created: CREATED, software: 'fip-test 1.0' },
    });
    await new Promise<void>((resolve) => zip.once('data', () => resolve()));
    zip.destroy();
    const closedInTime = await Promise.race([sourceClosed.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 5000))]);
    assert.equal(closedInTime, true, `the source was still being read after the consumer left (${produced} chunks)`);
  });
});
