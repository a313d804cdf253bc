// The wallet LLM verifier built from settings: the one module of the wallet pipeline that loads the
// Anthropic SDK (about a tenth of a CLI start), imported only where verification can run.
import Anthropic from '@anthropic-ai/sdk';
import { createWalletLlmVerifier, type WalletLlmVerifier } from './llm-verification';
import { LruVerdictCache, type VerdictCache } from './verdict-cache';
import { wantsLlm } from './wallet-extraction';

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
  if (!wantsLlm(s)) return undefined;
  const client = new Anthropic({ apiKey: s.anthropicApiKey, baseURL: s.anthropicBaseUrl, maxRetries: 1, timeout: 60_000 });
  return createWalletLlmVerifier({ client, model: s.model, cache: s.cache ?? new LruVerdictCache(), warn: s.warn });
}
