// GET /investigations/ssi/{scan_id}/lea-package: one signed ZIP for a law-enforcement agency:
//   report.pdf                          the investigation PDF
//   evidence/ssi-<scan_id>-evidence.wacz   the signed evidence bundle (itself verifiable)
//   findings/findings.json              every finding with the WARC record of the bundle that holds it (as in the bundle)
//   wallets/wallets.csv, wallets/wallets.xlsx   the scan's wallets (services/wallets/wallet-service.ts)
//   custody/custody.jsonl               the chain of custody, this handling included
//   signature/public-key.pem            the public key that signed the package
//   SHA256SUMS                          for `sha256sum -c`
//   VERIFY.txt                          how to check it, with the platform's CLI or standard tools
//   datapackage.json + datapackage-digest.json   the signature manifest
//   timestamp.tsr                       the RFC 3161 token over the manifest, when an authority answered (./trusted-time.ts)
import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { evidenceKeyringFor } from '../../infra/evidence-keyring';
import type { WalletExportFormat } from '../wallets/wallet-export';
import { scanWalletStream } from '../wallets/wallet-service';
import { captureTime, custodyLog, endedScan, EVIDENCE_SOFTWARE, evidenceBundleStream, recordHandling, type EvidenceDeps, type Handling } from './evidence-bundle';
import { findingsJson } from './finding-provenance';
import { investigationReportPdf } from './investigation-report-pdf';
import { signedZipStream, type ZipEntrySource } from '../../infra/signed-zip-writer';
import { listPages } from '../../db/repositories/investigations/investigation-repository';
import { packageTimestamp, trustedTimeStatement, trustedTimeVerifyText } from './trusted-time';

function walletFile(deps: EvidenceDeps, scanId: string, format: WalletExportFormat): Readable {
  return scanWalletStream(deps, scanId, format, (err) => (err instanceof Error ? err : new Error(String(err))));
}

export function verifyText(scanId: string, keyId: string, trustedTime: string): string {
  return `HOW TO CHECK THIS PACKAGE
========================

Package: evidence of scam-site investigation ${scanId}
Signed with the ECDSA P-384 key ${keyId} (its public key: signature/public-key.pem).

Every file of this package is listed with its size and SHA-256 in datapackage.json.
datapackage-digest.json holds the SHA-256 of datapackage.json and an ECDSA P-384 / SHA-256
signature over that digest (the text "sha256:<hex>"), in Webrecorder's WACZ signing format
(wacz-auth 0.1.0). A change to any byte of any file changes its hash, which no longer matches the
manifest; a change to the manifest no longer matches the signed digest.

0. FIRST: WHO SIGNED IT. Anyone can re-sign a changed package with a key of their own and enclose
   that key. A valid signature proves nothing until you know the key is the platform's. Take the
   platform's key fingerprint from a channel other than this package (the referral you received,
   a phone call, the platform's page GET /evidence/signing-keys), NEVER from this package, and
   compare it with the fingerprint of the enclosed key:

     openssl pkey -pubin -in signature/public-key.pem -outform DER | sha256sum

   The 64 hex digits must equal the fingerprint received out of band. If they differ, stop: the
   package was not signed by the platform, whatever the steps below say.

1. With the platform's command line (checks everything at once, names each file that fails, and
   reports the signer as UNTRUSTED unless its key is the one you name):

     npx fip evidence verify <this-package.zip or the extracted folder> --fingerprint <fingerprint received out of band>

   The evidence bundle inside (evidence/*.wacz) is signed the same way:

     npx fip evidence verify evidence/ssi-${scanId}-evidence.wacz --fingerprint <fingerprint>

2. With standard tools (sha256sum, sed, base64, OpenSSL), in the extracted folder, after step 0:

   a) the files against their hashes:

        sha256sum -c SHA256SUMS

   b) the manifest against the signature (datapackage-digest.json carries the signature twice: raw
      r|s in "signature", as Webrecorder's tools read it, and DER in "signature_der", as OpenSSL
      reads it):

        printf 'sha256:%s' "$(sha256sum datapackage.json | cut -d' ' -f1)" > digest.txt
        sed -n 's/.*"signature_der": "\\([A-Za-z0-9+/=]*\\)".*/\\1/p' datapackage-digest.json | head -n 1 | base64 -d > signature.der
        openssl dgst -sha256 -verify signature/public-key.pem -signature signature.der digest.txt

      OpenSSL answers "Verified OK". digest.txt is the SHA-256 of the manifest as you have it, so a
      changed manifest fails here, and a changed file fails in a).

${trustedTime}
4. Where each finding was seen: findings/findings.json (the same file as in the evidence bundle)
   names, for every reported wallet and contact, the WARC record of evidence/*.wacz whose body holds
   it (its WARC-Record-ID and WARC-Target-URI), the page, the agent's step and the screenshot taken
   then. Unzip the bundle, and grep the record: zcat archive/data.warc.gz | grep -a <address>

5. The chain of custody (custody/custody.jsonl) lists the capture and every export and download of
   this evidence since: UTC time, actor, action, purpose and the hashes re-verified at that moment.

The evidence bundle (evidence/*.wacz) is a WACZ 1.1.1 web archive: ReplayWeb.page opens it and
shows its signature and the "Observer Public Key" (compare it with the platform's, as in step 0),
and Webrecorder's validator checks its structure: wacz validate -f <file>.wacz
`;
}

export async function leaPackageStream(deps: EvidenceDeps, scanId: string, handling: Handling): Promise<{ stream: Readable; filename: string }> {
  const inv = await endedScan(deps.knex, scanId);
  const pages = await listPages(deps.knex, scanId);
  const signer = evidenceKeyringFor(deps.config).signer();
  const { pdf } = await investigationReportPdf(deps, scanId, null);
  const bundleName = `evidence/ssi-${scanId}-evidence.wacz`;
  const entries: ZipEntrySource[] = [
    { path: 'report.pdf', open: () => pdf },
    {
      path: bundleName,
      store: true,
      open: async () => (await evidenceBundleStream(deps, scanId, { actor: handling.actor, action: 'export', artifact: 'evidence-bundle (into lea-package)', purpose: handling.purpose })).stream,
    },
    { path: 'findings/findings.json', open: () => findingsJson(deps, scanId) },
    { path: 'wallets/wallets.csv', open: () => walletFile(deps, scanId, 'csv') },
    { path: 'wallets/wallets.xlsx', open: () => walletFile(deps, scanId, 'xlsx') },
    { path: 'signature/public-key.pem', open: () => Buffer.from(signer.publicKeyPem, 'utf8') },
    { path: 'VERIFY.txt', open: () => Buffer.from(verifyText(scanId, signer.keyId, trustedTimeVerifyText(deps.config, '3')), 'utf8') },
  ];
  const stream = signedZipStream(entries, {
    date: captureTime(inv, pages),
    signer,
    manifest: {
      title: `LEA package of investigation ${scanId}`,
      description: `Evidence of ${inv.url} for a law-enforcement agency`,
      software: EVIDENCE_SOFTWARE,
      extras: { scan_id: scanId, handling: { actor: handling.actor, action: handling.action, purpose: handling.purpose }, trusted_time: trustedTimeStatement(deps.config) },
    },
    timestamp: { stamp: (manifestBytes) => packageTimestamp(deps, manifestBytes, `LEA package of ${scanId}`) },
    after: async (written) => {
      await recordHandling(deps, scanId, handling, written, new Map());
      const custody = await custodyLog(deps.knex, scanId);
      const sums = [...written.map((f) => [f.sha256, f.path] as const), [createHash('sha256').update(custody).digest('hex'), 'custody/custody.jsonl'] as const]
        .map(([hash, p]) => `${hash}  ${p}\n`)
        .join('');
      return [
        { path: 'custody/custody.jsonl', open: () => custody },
        { path: 'SHA256SUMS', open: () => Buffer.from(sums, 'utf8') },
      ];
    },
  });
  return { stream, filename: `ssi-${scanId}-lea-package.zip` };
}
