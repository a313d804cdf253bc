// The three stages wired together for callers with side effects (CLI, investigation activities):
// deterministic extraction -> optional LLM verification -> allowlist.
import Anthropic from '@anthropic-ai/sdk';
import { applyAllowlist } from '../../domain/wallets/allowlist-filter';
import type { AllowlistPair, ExtractionResult } from '../../domain/wallets/wallet-types';
import { createWalletLlmVerifier, type LlmVerificationStats, type WalletLlmVerifier } from './llm-verification';
import { LruVerdictCache, type VerdictCache } from './verdict-cache';

export interface WalletVerificationSettings {
  anthropicApiKey?: string;
  anthropicBaseUrl?: string;
  model: string;
  /** --no-llm */
  disableLlm?: boolean;
  cache?: VerdictCache;
  warn?: (message: string) => void;
}

/** The LLM verifier when a key is configured and not disabled, otherwise undefined. */
export function createLlmVerifierFromSettings(s: WalletVerificationSettings): WalletLlmVerifier | undefined {
  if (s.disableLlm || !s.anthropicApiKey) return undefined;
  const client = new Anthropic({ apiKey: s.anthropicApiKey, baseURL: s.anthropicBaseUrl, maxRetries: 1, timeout: 60_000 });
  return createWalletLlmVerifier({ client, model: s.model, cache: s.cache ?? new LruVerdictCache(), warn: s.warn });
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
