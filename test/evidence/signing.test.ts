// Evidence signing: the ECDSA P-384 keyring (created on first use, mode 0600, rotation keeping old
// public keys, an Ed25519-era keyring moved to P-384), the signed manifest (datapackage.json +
// datapackage-digest.json in wacz-auth 0.1.0's anonymous form, checked here with WebCrypto exactly as
// ReplayWeb.page does) and the offline verifier, pure and through `fip evidence verify`, which trusts
// only the keys it is told to: a package re-signed by another key is UNTRUSTED.
import assert from 'node:assert/strict';
import { createHash, createPublicKey, generateKeyPairSync, webcrypto } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ZipArchive } from 'archiver';
import { createSignedManifest, DIGEST_PATH, MANIFEST_PATH, type ManifestSigner } from '../../domain/evidence/package-manifest';
import { keyFingerprint, publicKeyPem, signingKeyId, signMessage } from '../../domain/evidence/signing-key';
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

  it('creates the keyring on first use with mode 0600: an ECDSA P-384 key whose id and fingerprint are the SHA-256 of its SPKI DER', () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fip-evidence-keys-'));
    const keyring = fileEvidenceKeyring(dataDir);
    const signer = keyring.signer();
    const file = evidenceKeyringPath(dataDir);
    assert.equal(fs.statSync(file).mode & 0o777, 0o600);
    const key = createPublicKey(signer.publicKeyPem);
    assert.equal(key.asymmetricKeyType, 'ec');
    assert.equal(key.asymmetricKeyDetails?.namedCurve, 'secp384r1');
    const fingerprint = sha(key.export({ format: 'der', type: 'spki' }));
    assert.equal(signer.keyId, `ecdsa-p384:${fingerprint.slice(0, 32)}`);
    assert.deepEqual(keyring.list().map((k) => [k.key_id, k.fingerprint, k.algorithm]), [[signer.keyId, fingerprint, 'ecdsa-p384-sha256']]);
    assert.equal(fileEvidenceKeyring(dataDir).activeKeyId(), signer.keyId, 'a second process reads the same keyring');
  });

  it('signs datapackage-digest.json as wacz-auth 0.1.0 anonymous signedData that WebCrypto verifies as ReplayWeb.page does', async () => {
    const keyring = fileEvidenceKeyring(fs.mkdtempSync(path.join(os.tmpdir(), 'fip-evidence-keys-')));
    const signed = createSignedManifest(
      Object.entries(FILES).map(([p, bytes]) => ({ path: p, bytes: bytes.length, sha256: sha(bytes) })),
      keyring.signer(),
      { created: CREATED, software: 'fip-test 1.0' },
    );
    const digest = JSON.parse(signed.digestBytes.toString('utf8'));
    assert.deepEqual(Object.keys(digest.signedData), ['hash', 'created', 'software', 'version', 'signature', 'publicKey']);
    assert.equal(digest.signedData.version, '0.1.0');
    assert.equal(digest.signedData.hash, `sha256:${sha(signed.manifestBytes)}`);
    assert.equal(digest.signedData.created, CREATED);
    assert.equal(Buffer.from(digest.signedData.signature, 'base64').length, 96, 'raw r||s of P-384');
    // wabac.js (ReplayWeb.page) certutils: importKey('spki', publicKey, P-384), verify ECDSA SHA-256 over the UTF-8 of hash.
    const check = async (signedData: { hash: string; signature: string; publicKey: string }) => {
      const key = await webcrypto.subtle.importKey('spki', Buffer.from(signedData.publicKey, 'base64'), { name: 'ECDSA', namedCurve: 'P-384' }, true, ['verify']);
      return webcrypto.subtle.verify({ name: 'ECDSA', hash: 'SHA-256' }, key, Buffer.from(signedData.signature, 'base64'), new TextEncoder().encode(signedData.hash));
    };
    assert.equal(await check(digest.signedData), true);
    assert.equal(await check({ ...digest.signedData, hash: `sha256:${'0'.repeat(64)}` }), false);
    assert.equal(digest.signature.fingerprint, keyring.list()[0]!.fingerprint);
    // signature_der is the same signature for OpenSSL: node reads it as DER.
    const { verify } = await import('node:crypto');
    assert.equal(verify('sha256', Buffer.from(digest.signedData.hash), createPublicKey(keyring.signer().publicKeyPem), Buffer.from(digest.signature.signature_der, 'base64')), true);
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

  it('names the signer UNTRUSTED, with its fingerprint, when the package is signed by a key outside the trusted set', async () => {
    const stranger = fileEvidenceKeyring(fs.mkdtempSync(path.join(os.tmpdir(), 'fip-evidence-keys-')));
    const ours = fileEvidenceKeyring(fs.mkdtempSync(path.join(os.tmpdir(), 'fip-evidence-keys-')));
    const dir = writePackage(stranger.signer(), FILES);
    const result = await verifyPackage(dir, { trustedKeys: ours.trustedKeys() });
    assert.equal(result.valid, false);
    assert.deepEqual(result.problems.map((p) => [p.file, p.code]), [[DIGEST_PATH, 'untrusted_key']]);
    assert.equal(result.key_id, stranger.activeKeyId());
    assert.equal(result.trusted, false);
    assert.equal(result.fingerprint, stranger.list()[0]!.fingerprint);
    assert.match(result.problems[0]!.message, new RegExp(`UNTRUSTED.*${result.fingerprint}`));
    const byFingerprint = await verifyPackage(dir, { trustedFingerprints: [stranger.list()[0]!.fingerprint] });
    assert.equal(byFingerprint.valid, true, JSON.stringify(byFingerprint.problems));
    assert.equal(byFingerprint.trusted, true);
  });

  it('a configured P-384 PEM key signs, and the public keys of earlier keys still verify; other keys are refused', async () => {
    const old = generateKeyPairSync('ec', { namedCurve: 'P-384' });
    const current = generateKeyPairSync('ec', { namedCurve: 'P-384' });
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
    assert.throws(() => configuredEvidenceKeyring(generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(), []), /not ECDSA P-384/);
    assert.throws(() => configuredEvidenceKeyring(generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(), []), /ed25519 key, not ECDSA P-384/);
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
    const fingerprint = keyring.list()[0]!.fingerprint;
    const good = await runCli(['evidence', 'verify', dir, '--fingerprint', fingerprint]);
    assert.equal(good.code, 0, good.stdout + good.stderr);
    for (const p of [...Object.keys(FILES), MANIFEST_PATH, DIGEST_PATH]) assert.match(good.stdout, new RegExp(`^OK +${p.replace(/\./g, '\\.')} `, 'm'));
    assert.match(good.stdout, new RegExp(`VALID: .* ${keyring.activeKeyId()}.*${fingerprint}`));

    const zip = await zipDirectory(dir);
    const goodZip = await runCli(['evidence', 'verify', zip, '--json', '--fingerprint', `sha256:${fingerprint.toUpperCase()}`]);
    assert.equal(goodZip.code, 0, goodZip.stdout + goodZip.stderr);
    assert.equal(JSON.parse(goodZip.stdout).valid, true);

    const pemFile = path.join(dir, '..', `${path.basename(dir)}.pub.pem`);
    fs.writeFileSync(pemFile, keyring.signer().publicKeyPem);
    assert.equal((await runCli(['evidence', 'verify', dir, '--public-key', pemFile])).code, 0);
    const base64Der = createPublicKey(keyring.signer().publicKeyPem).export({ format: 'der', type: 'spki' }).toString('base64');
    assert.equal((await runCli(['evidence', 'verify', dir, '--public-key', base64Der])).code, 0);
    // Nothing vouches for the key: intact, but UNTRUSTED, exit 1, naming the fingerprint seen.
    const bare = await runCli(['evidence', 'verify', dir]);
    assert.equal(bare.code, 1, bare.stdout + bare.stderr);
    assert.match(bare.stdout, new RegExp(`^UNTRUSTED: .*${keyring.activeKeyId()} with fingerprint ${fingerprint}`, 'm'));

    const screenshot = path.join(dir, 'screenshots', 'page-1.png');
    const bytes = fs.readFileSync(screenshot);
    bytes[3] ^= 0x01;
    fs.writeFileSync(screenshot, bytes);
    fs.rmSync(path.join(dir, 'custody', 'custody.jsonl'));
    fs.writeFileSync(path.join(dir, 'custody', 'smuggled.txt'), 'not listed');
    const bad = await runCli(['evidence', 'verify', dir, '--public-key', pemFile]);
    assert.equal(bad.code, 1, bad.stdout + bad.stderr);
    assert.match(bad.stdout, /^FAILED +screenshots\/page-1\.png /m);
    assert.match(bad.stdout, /^problem: screenshots\/page-1\.png: .*changed/m);
    assert.match(bad.stdout, /^problem: custody\/custody\.jsonl: .*missing/m);
    assert.match(bad.stdout, /^problem: custody\/smuggled\.txt: .*not listed/m);
    assert.match(bad.stdout, /INVALID: 3 problem/);
    assert.match(bad.stdout, /^OK +archive\/data\.warc\.gz /m, 'untouched files stay OK');
  });
});

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'evidence');

function copyDir(from: string): string {
  const to = fs.mkdtempSync(path.join(os.tmpdir(), 'fip-evidence-copy-'));
  fs.cpSync(from, to, { recursive: true });
  return to;
}

describe('evidence signatures: trust only what the verifier is told, and packages signed before', function () {
  this.timeout(120_000);
  const warc = 'archive/data.warc.gz';

  it('a bundle with one changed WARC byte, re-hashed and re-signed with an attacker key it encloses, is UNTRUSTED; the platform bundle with its fingerprint is VALID', async () => {
    const platform = fileEvidenceKeyring(fs.mkdtempSync(path.join(os.tmpdir(), 'fip-evidence-keys-')));
    const attacker = fileEvidenceKeyring(fs.mkdtempSync(path.join(os.tmpdir(), 'fip-evidence-keys-')));
    const platformFingerprint = platform.list()[0]!.fingerprint;
    const attackerFingerprint = attacker.list()[0]!.fingerprint;
    const original = writePackage(platform.signer(), FILES);
    const ok = await runCli(['evidence', 'verify', original, '--fingerprint', platformFingerprint]);
    assert.equal(ok.code, 0, ok.stdout + ok.stderr);
    assert.match(ok.stdout, /^VALID: /m);

    const forged = Buffer.from(FILES[warc]);
    forged[5] ^= 0x01;
    const resigned = writePackage(attacker.signer(), { ...FILES, [warc]: forged });
    assert.equal((await verifyPackage(resigned)).valid, true, 'the forgery is internally consistent: only trust tells it apart');
    const caught = await runCli(['evidence', 'verify', resigned, '--fingerprint', platformFingerprint]);
    assert.equal(caught.code, 1, caught.stdout + caught.stderr);
    assert.match(caught.stdout, new RegExp(`^signer: ${attacker.activeKeyId()} \\(ecdsa-p384-sha256\\), fingerprint ${attackerFingerprint}: UNTRUSTED$`, 'm'));
    assert.match(caught.stdout, new RegExp(`^UNTRUSTED: .*fingerprint ${attackerFingerprint}`, 'm'));
    assert.doesNotMatch(caught.stdout, /^VALID/m);
    // The installation's own keyring does not vouch for it either (the CLI's default trust).
    assert.equal((await runCli(['evidence', 'verify', resigned])).code, 1);

    // One changed WARC byte, not re-signed: named.
    const changed = copyDir(original);
    fs.writeFileSync(path.join(changed, warc), forged);
    const named = await runCli(['evidence', 'verify', changed, '--fingerprint', platformFingerprint]);
    assert.equal(named.code, 1, named.stdout);
    assert.match(named.stdout, /^FAILED +archive\/data\.warc\.gz /m);
    assert.match(named.stdout, /^problem: archive\/data\.warc\.gz: .*changed/m);

    // The key swapped inside the signature block (the platform's signature kept): named.
    const swapped = copyDir(original);
    const digestFile = path.join(swapped, DIGEST_PATH);
    const digest = JSON.parse(fs.readFileSync(digestFile, 'utf8'));
    const attackerPem = attacker.signer().publicKeyPem;
    digest.signature.public_key = attackerPem;
    digest.signature.key_id = attacker.activeKeyId();
    digest.signature.fingerprint = attackerFingerprint;
    digest.signedData.publicKey = createPublicKey(attackerPem).export({ format: 'der', type: 'spki' }).toString('base64');
    fs.writeFileSync(digestFile, `${JSON.stringify(digest, null, 2)}\n`);
    const swap = await runCli(['evidence', 'verify', swapped, '--fingerprint', attackerFingerprint]);
    assert.equal(swap.code, 1, swap.stdout);
    assert.match(swap.stdout, /^problem: datapackage-digest\.json: the signature over sha256:[0-9a-f]{64} does not verify with the enclosed key/m);
  });

  it('an evidence bundle signed with Ed25519 before the switch still verifies with its key, and still names a changed byte', async () => {
    const fixture = path.join(FIXTURES, 'ed25519-bundle');
    const pem = path.join(FIXTURES, 'ed25519-bundle.pub.pem');
    const oldKey = createPublicKey(fs.readFileSync(pem, 'utf8'));
    const good = await runCli(['evidence', 'verify', fixture, '--public-key', pem]);
    assert.equal(good.code, 0, good.stdout + good.stderr);
    assert.match(good.stdout, new RegExp(`^signer: ${signingKeyId(oldKey)} \\(ed25519\\), fingerprint ${keyFingerprint(oldKey)}: trusted$`, 'm'));
    assert.equal((await runCli(['evidence', 'verify', fixture, '--fingerprint', keyFingerprint(oldKey)])).code, 0);
    // Kept in a configured key ring as a previous key.
    const current = generateKeyPairSync('ec', { namedCurve: 'P-384' }).privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    const ring = configuredEvidenceKeyring(current, [fs.readFileSync(pem, 'utf8')]);
    const viaRing = await verifyPackage(fixture, { trustedKeys: ring.trustedKeys() });
    assert.deepEqual(viaRing.problems, []);
    assert.equal(viaRing.algorithm, 'ed25519');
    assert.equal((await verifyPackage(fixture, { trustedKeys: configuredEvidenceKeyring(current, []).trustedKeys() })).trusted, false);

    const tampered = copyDir(fixture);
    const bytes = fs.readFileSync(path.join(tampered, warc));
    bytes[bytes.length - 3] ^= 0x01;
    fs.writeFileSync(path.join(tampered, warc), bytes);
    const bad = await runCli(['evidence', 'verify', tampered, '--public-key', pem]);
    assert.equal(bad.code, 1, bad.stdout);
    assert.match(bad.stdout, /^problem: archive\/data\.warc\.gz: .*changed/m);
  });

  it('moves an Ed25519-era keyring to a fresh P-384 key on first use, keeping the Ed25519 public key (retired) to verify', () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fip-evidence-keys-'));
    const old = generateKeyPairSync('ed25519');
    const oldId = signingKeyId(old.publicKey);
    const file = evidenceKeyringPath(dataDir);
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    fs.writeFileSync(file, JSON.stringify({
      version: 1, active: oldId,
      keys: { [oldId]: { public_key: publicKeyPem(old.publicKey), private_key: old.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(), created_at: '2026-11-01T00:00:00.000Z' } },
    }), { mode: 0o600 });
    const keyring = fileEvidenceKeyring(dataDir);
    assert.match(keyring.signer().keyId, /^ecdsa-p384:[0-9a-f]{32}$/);
    const listed = keyring.list();
    const retired = listed.find((k) => k.key_id === oldId)!;
    assert.deepEqual([retired.algorithm, retired.active, retired.can_sign, retired.fingerprint], ['ed25519', false, false, keyFingerprint(old.publicKey)]);
    assert.ok(retired.retired_at);
    assert.equal(listed.filter((k) => k.active).length, 1);
    assert.equal(keyring.trustedKeys().get(oldId), publicKeyPem(old.publicKey));
    assert.equal(fs.readFileSync(file, 'utf8').match(/PRIVATE KEY-----\\n/g)?.length, 2, 'only the P-384 private key is left');
    assert.equal(fileEvidenceKeyring(dataDir).activeKeyId(), keyring.activeKeyId(), 'migrated once');
    assert.equal(fs.existsSync(`${file}.lock`), false);
  });
});

describe('evidence signing configuration', () => {
  it('reads SVC_EVIDENCE__PREVIOUS_PUBLIC_KEYS as PEMs or as comma-separated paths, and redacts the signing key from logs', async () => {
    const { loadConfig } = await import('../../config/config');
    const { createLogger } = await import('../../infra/logger');
    const a = generateKeyPairSync('ed25519');
    const b = generateKeyPairSync('ec', { namedCurve: 'P-384' });
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
