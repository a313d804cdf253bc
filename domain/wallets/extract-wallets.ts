// The engine's entry point for one document or page snapshot (investigation workflows call this on
// every page transition; the CLI streams files through WalletScanner directly).
import { applyAllowlist } from './allowlist-filter';
import { WalletScanner } from './wallet-scanner';
import type { AllowlistPair, ExtractionResult } from './wallet-types';

export interface WalletScanInput {
  /** Page HTML (DOM snapshot). */
  html?: string;
  /** Plain text (visible text, e-mail, chat log); used when there is no HTML. */
  text?: string;
  url?: string;
  /** Label of the coin tab that was active (`BTC`, `USDT (TRC20)`...). */
  coinTab?: string;
}

export interface ExtractOptions {
  /** Also return candidates removed by verification or the allowlist, with reasons. */
  includeRejected?: boolean;
  /** When given, stage 3 is applied: only allowlisted token-network pairs are kept. */
  allowlist?: readonly AllowlistPair[];
}

/**
 * Stage 1 (detection) and deterministic stage 2 (verification + context), then the allowlist when
 * given. For language-model verification, call the LLM verifier on the result before the allowlist.
 */
export function extractWallets(input: WalletScanInput, options: ExtractOptions = {}): ExtractionResult {
  const isHtml = input.html !== undefined;
  const scanner = new WalletScanner({ coinTab: input.coinTab, url: input.url, html: isHtml }, { includeRejected: options.includeRejected });
  scanner.push(isHtml ? (input.html ?? '') : (input.text ?? ''));
  const result = scanner.end();
  return options.allowlist ? applyAllowlist(result, options.allowlist, options.includeRejected ?? false) : result;
}
