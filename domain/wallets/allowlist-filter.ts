// Stage 3: only findings whose token-network pair is in the allowlist are kept.
import type { AllowlistPair, ExtractionResult } from './wallet-types';

export function applyAllowlist(result: ExtractionResult, pairs: readonly AllowlistPair[], keepRejected = true): ExtractionResult {
  const allowed = new Set(pairs.map((p) => `${p.token.toUpperCase()}|${p.network}`));
  const findings = [];
  const rejected = keepRejected ? [...result.rejected] : [];
  for (const f of result.findings) {
    if (allowed.has(`${f.token.toUpperCase()}|${f.networkId}`)) findings.push(f);
    else if (keepRejected) {
      rejected.push({ candidate: f.address, reason: `token-network pair ${f.token}/${f.networkId} is not in the allowlist`, networks: [f.networkId], location: f.location, offset: f.offset, stage: 'allowlist' });
    }
  }
  return { findings, rejected };
}
