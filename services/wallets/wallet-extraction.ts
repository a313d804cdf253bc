// The three stages wired together for callers with side effects (CLI, investigation activities):
// deterministic extraction -> optional LLM verification -> allowlist. The LLM verifier's client (the
// Anthropic SDK) is in ./llm-verifier-settings, so that a scan without the LLM never loads it.
import { applyAllowlist } from '../../domain/wallets/allowlist-filter';
import type { AllowlistPair, ExtractionResult } from '../../domain/wallets/wallet-types';
import type { LlmVerificationStats, WalletLlmVerifier } from './llm-verification';

/** Whether verification settings call for the LLM: a key is configured and the LLM is not disabled. */
export function wantsLlm(s: { anthropicApiKey?: string; disableLlm?: boolean }): boolean {
  return !s.disableLlm && !!s.anthropicApiKey;
}

export interface FinalResult extends ExtractionResult {
  llm?: LlmVerificationStats;
}

/** Stage 2 (LLM, when available) and stage 3 (allowlist) over a deterministic result. */
export async function finishExtraction(
  result: ExtractionResult,
  deps: { verifier?: WalletLlmVerifier; allowlist: readonly AllowlistPair[]; page?: { url?: string; title?: string }; keepRejected?: boolean },
): Promise<FinalResult> {
  const verified = deps.verifier ? await deps.verifier.verify(result, deps.page) : undefined;
  const filtered = applyAllowlist(verified ?? result, deps.allowlist, deps.keepRejected ?? true);
  return { ...filtered, llm: verified?.llm };
}
