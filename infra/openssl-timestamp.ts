// Checks an RFC 3161 token's CMS signature and certificate chain with the OpenSSL binary
// (`openssl ts -verify`), the same command a recipient runs from VERIFY.txt. Used only when a CA
// is given (`fip evidence verify --tsa-ca`); the imprint check needs no OpenSSL.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface OpensslTimestampVerdict {
  ok: boolean;
  /** OpenSSL's own words (the last lines of its output). */
  detail: string;
}

/** `openssl ts -verify -data <manifest> -in <response> -CAfile <ca>`, with the manifest and response written to a private temp dir. */
export async function verifyTimestampWithOpenssl(manifestBytes: Buffer, response: Buffer, caFile: string): Promise<OpensslTimestampVerdict> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fip-tsa-verify-'));
  try {
    const data = path.join(dir, 'datapackage.json');
    const tsr = path.join(dir, 'timestamp.tsr');
    fs.writeFileSync(data, manifestBytes);
    fs.writeFileSync(tsr, response);
    return await new Promise((resolve) => {
      execFile('openssl', ['ts', '-verify', '-data', data, '-in', tsr, '-CAfile', caFile], { timeout: 30_000 }, (err, stdout, stderr) => {
        const detail = `${stdout}${stderr}`.trim().split('\n').slice(-3).join(' | ');
        resolve({ ok: !err && /Verification: OK/.test(stdout), detail: detail || (err ? err.message : '') });
      });
    });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
