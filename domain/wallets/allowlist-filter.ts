// Stage 3: the allowlist filters readings, not addresses. A finding whose token-network pair is in
// the allowlist is kept; one whose pair is not is kept with the first allowed token among the other
// readings of the same label and network (tokenAlternatives), and dropped only when none is allowed.
import type { AllowlistPair, ExtractionResult, WalletFinding } from './wallet-types';

export function applyAllowlist(result: ExtractionResult, pairs: readonly AllowlistPair[], keepRejected = true): ExtractionResult {
  const allowed = new Set(pairs.map((p) => `${p.token.toUpperCase()}|${p.network}`));
  const findings: WalletFinding[] = [];
  const rejected = keepRejected ? [...result.rejected] : [];
  for (const f of result.findings) {
    if (allowed.has(`${f.token.toUpperCase()}|${f.networkId}`)) {
      findings.push(f);
      continue;
    }
    const other = f.tokenAlternatives?.find((t) => allowed.has(`${t.toUpperCase()}|${f.networkId}`));
    if (other) {
      findings.push({ ...f, token: other, tokenAlternatives: [f.token, ...(f.tokenAlternatives ?? []).filter((t) => t !== other)] });
      if (keepRejected) {
        rejected.push({ candidate: f.address, reason: `reading ${f.token}/${f.networkId} is not in the allowlist; kept as ${other}/${f.networkId}, also named by its label`, networks: [f.networkId], location: f.location, offset: f.offset, stage: 'allowlist', token: f.token, network: f.network });
      }
    } else if (keepRejected) {
      rejected.push({ candidate: f.address, reason: `token-network pair ${f.token}/${f.networkId} is not in the allowlist`, networks: [f.networkId], location: f.location, offset: f.offset, stage: 'allowlist' });
    }
  }
  return { findings, rejected };
}
