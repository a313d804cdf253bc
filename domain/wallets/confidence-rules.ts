// Confidence rules (also the README text):
//
// Evidence is graded as
//   handed-over: the page hands the string to the visitor: a copy-button attribute
//                (data-clipboard-text, data-copy, ...), an input/textarea value, a payment URI
//                (bitcoin:, ethereum:, ...), an explorer link around it, a coin tab that names a
//                compatible token/network, or a copy control next to it;
//   network:     a compatible network or token is named nearby (ERC20, TRC20, BEP20, Polygon, USDT, ...);
//   wallet-word: a wallet word is nearby (address, wallet, deposit, send, pay, receive, ...);
//   none.
// Checksum strength: strong = at least 30 check bits; weak = 16-29 (SS58, StrKey, TON, HIP-15, EIP-55);
// none = no checksum (single-case EVM, Solana, Aptos/Sui, NEAR, EOS, TON raw, HBAR without checksum).
//
//   strong checksum: high with any evidence, medium without.
//   weak checksum:   high when handed over, medium with network or wallet words, low without.
//   no checksum:     medium when handed over, low with network words (or wallet words in visible text),
//                    rejected otherwise ("no checksum and no wallet context").
// Style sheets and comments cap the result at low, and reject formats without a checksum.
import type { ChecksumStrength, Confidence } from './wallet-types';

export type Evidence = 'handed-over' | 'network' | 'wallet-word' | 'none';

export interface ConfidenceDecision {
  confidence: Confidence | null;
  reason: string;
}

export function decideConfidence(strength: ChecksumStrength, evidence: Evidence, locationKind: string): ConfidenceDecision {
  let decision: ConfidenceDecision;
  if (strength === 'strong') {
    decision = evidence === 'none' ? { confidence: 'medium', reason: 'strong checksum, no context' } : { confidence: 'high', reason: `strong checksum + ${evidence}` };
  } else if (strength === 'weak') {
    decision = evidence === 'handed-over' ? { confidence: 'high', reason: 'checksum + handed-over' }
      : evidence === 'none' ? { confidence: 'low', reason: '16-bit-class checksum, no context' }
        : { confidence: 'medium', reason: `checksum + ${evidence}` };
  } else if (evidence === 'handed-over') {
    decision = { confidence: 'medium', reason: 'no checksum + handed-over' };
  } else if (evidence === 'network' || (evidence === 'wallet-word' && (locationKind === 'text' || locationKind === 'uri'))) {
    decision = { confidence: 'low', reason: `no checksum + ${evidence}` };
  } else {
    decision = { confidence: null, reason: 'no checksum and no wallet context' };
  }
  if ((locationKind === 'style' || locationKind === 'comment') && decision.confidence) {
    if (strength === 'none') return { confidence: null, reason: `no checksum inside a ${locationKind}` };
    return { confidence: 'low', reason: `${decision.reason}, inside a ${locationKind}` };
  }
  return decision;
}

export const CONFIDENCE_RANK: Record<Confidence, number> = { high: 3, medium: 2, low: 1 };
