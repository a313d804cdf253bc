// Shared types of the wallet-extraction engine (pure data, no behaviour).

/** Stable identifier of a supported network (see network-catalog.ts). */
export type NetworkId =
  | 'bitcoin' | 'ethereum' | 'bsc' | 'polygon' | 'arbitrum' | 'optimism' | 'base' | 'avalanche-c'
  | 'ethereum-classic' | 'rootstock' | 'tron' | 'solana' | 'xrp' | 'cardano' | 'dogecoin' | 'litecoin'
  | 'bitcoin-cash' | 'monero' | 'polkadot' | 'kusama' | 'cosmos' | 'osmosis' | 'stellar' | 'algorand'
  | 'ton' | 'near' | 'dash' | 'zcash' | 'filecoin' | 'hedera' | 'eos' | 'tezos' | 'aptos' | 'sui'
  | 'bnb-beacon' | 'kaspa' | 'avalanche-x' | 'internet-computer' | 'nano' | 'stacks' | 'zilliqa' | 'aleo'
  | 'starknet' | 'iota' | 'shimmer' | 'ycash'
  /** A Cosmos-SDK chain of the pinned chain registry (cosmos-chains.ts), by its registry name: `cosmos-kava`. */
  | `cosmos-${string}`;

export type Confidence = 'high' | 'medium' | 'low';

/**
 * Checksum strength class of a decoded format:
 * strong = at least 30 check bits (base58check, bech32, cashaddr, Keccak/SHA-512/256/blake2b/CRC32 checksums);
 * weak = 16 to 29 bits (SS58, StrKey CRC16, TON CRC16, HIP-15, EIP-55 mixed case);
 * none = no checksum (lower/upper-case EVM, Solana, Aptos/Sui, NEAR, EOS, TON raw, HBAR without checksum).
 */
export type ChecksumStrength = 'strong' | 'weak' | 'none';

/** What a string decoded to. `kind` other than 'address' is never reported as a wallet. */
export interface AddressMatch {
  /** Networks this exact string is valid on, in default-preference order. */
  networks: NetworkId[];
  /** Format name, e.g. 'p2pkh', 'segwit-v0', 'eip55', 'ss58'. */
  format: string;
  /** Checksum description, e.g. 'base58check (double SHA-256)'. */
  checksum: string;
  strength: ChecksumStrength;
  /** Canonical form used for deduplication (lower-cased bech32/hex, prefix kept for cashaddr...). */
  normalized: string;
  kind: 'address' | 'secret' | 'extended-key' | 'testnet' | 'non-payment';
  /** Why a non-address kind is not reported (e.g. 'leaked private key (WIF)'). */
  note?: string;
}

/** A string that looked like an address of some format but failed decoding. */
export interface DecodeFailure {
  format: string;
  reason: string;
}

export interface DecodeResult {
  matches: AddressMatch[];
  failures: DecodeFailure[];
}

/** Where on the page a candidate was found. */
export type SourceLabel = string; // 'text' | 'attr:<name>' | 'input:value' | 'uri:<scheme>' | 'script' | 'script:json' | 'coin-tab:<label>'

export type NetworkBasis = 'format' | 'coin-tab' | 'uri' | 'attribute' | 'explorer' | 'structure' | 'context' | 'default';
export type TokenBasis = 'native' | 'coin-tab' | 'uri' | 'attribute' | 'structure' | 'context';

export interface WalletFinding {
  address: string;
  token: string;
  /** Network display name, e.g. 'Ethereum', 'Tron', 'Bitcoin'. */
  network: string;
  networkId: NetworkId;
  confidence: Confidence;
  /** `coin-tab:<label>` when a coin tab decided or confirmed the network, otherwise the location. */
  source: SourceLabel;
  /** Raw location on the page: 'text', 'attr:data-clipboard-text', 'uri:bitcoin', 'script', ... */
  location: SourceLabel;
  /** Visible-text snippet around the address (for analysts and for LLM verification). */
  context: string;
  format: string;
  checksum: string;
  strength: ChecksumStrength;
  /** Networks the decoder allows for this string (the LLM may only narrow within these). */
  allowedNetworks: NetworkId[];
  /**
   * How the network was chosen: the format allows one network; the coin tab; the payment URI
   * (scheme or EIP-681 chain id); an attribute of the address's tag or of an element around it
   * (data-network, data-chain, data-chain-id, aria-label, a tab's label); an explorer link; the
   * structure holding the address (table row, column header, JSON object, block with its heading);
   * words nearby (byte distance); or nothing (`default`: the first network the format allows).
   */
  networkBasis: NetworkBasis;
  /** How the token was chosen (same sources; `native` = nothing named a token). */
  tokenBasis: TokenBasis;
  /** Memo, destination tag or comment that identifies the victim's account at an exchange (XRP, Stellar, TON, EOS, ...). */
  memo?: string;
  /**
   * Other tokens of this network that the label deciding the token also names, in preference order
   * ("Tron (TRX), USDT (TRC20), USDC (TRC20)"): the allowlist keeps the first allowed one when the
   * chosen token is not allowed. Not stored or exported.
   */
  tokenAlternatives?: string[];
  /** Why the confidence is what it is (short rule name). */
  reason: string;
  /** Byte-ish (UTF-16 code unit) offset of the first occurrence in the scanned input. */
  offset: number;
  /** Number of occurrences merged into this finding. */
  occurrences: number;
}

export interface RejectedCandidate {
  candidate: string;
  reason: string;
  /** Network ids the string was tried against or decoded to, when known. */
  networks: NetworkId[];
  location: SourceLabel;
  offset: number;
  stage: 'verification' | 'context' | 'constant' | 'llm' | 'allowlist' | 'resolution';
  /** For stage `resolution`: the token and network this alternative reading claimed. */
  token?: string;
  network?: string;
}

export interface ExtractionResult {
  findings: WalletFinding[];
  rejected: RejectedCandidate[];
}

/** A token-network pair from the allowlist. Token is a symbol, network a NetworkId. */
export interface AllowlistPair {
  token: string;
  network: NetworkId;
}
