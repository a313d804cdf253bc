// Well-known strings that decode as valid addresses but are never a scam wallet: specification
// test vectors copied into pages, burn/zero/predeploy addresses, token contracts and mints, program
// ids. Compared on the normalised form (hex lower-cased).
import { REFERENCE_VECTORS } from './well-known-contracts';

const CONSTANTS: Record<string, string> = {
  // EIP-55 examples
  '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed': 'EIP-55 test vector',
  '0xfb6916095ca1df60bb79ce92ce3ea74c37c5d359': 'EIP-55 test vector',
  '0xdbf03b407c01e7cd3cbea99509d93f8dddc8c6fb': 'EIP-55 test vector',
  '0xd1220a0cf47c7b9be7a2e6ba89f429762e7b9adb': 'EIP-55 test vector',
  '0x52908400098527886e0f7030069857d2e4169ee7': 'EIP-55 test vector',
  '0x8617e340b3d01fa5f11f306f4090fd50e238070d': 'EIP-55 test vector',
  '0xde709f2102306220921060314715629080e2fb77': 'EIP-55 test vector',
  '0x27b1fdb04752bbc536007a920d24acb045561c26': 'EIP-55 test vector',
  // burn, zero and predeploys
  '0x0000000000000000000000000000000000000000': 'zero address',
  '0x000000000000000000000000000000000000dead': 'burn address',
  '0xdeaddeaddeaddeaddeaddeaddeaddeaddead0000': 'Optimism/Base system address',
  '0x4200000000000000000000000000000000000010': 'Optimism bridge predeploy',
  '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee': 'native-token placeholder',
  // token contracts, mints, routers and programs: data/well-known-contracts.json (well-known-contracts.ts)
  T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb: 'Tron zero/black-hole address',
  // keccak constants that show up as 0x + 64 hex
  '0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470': 'keccak256 of the empty string',
  '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef': 'ERC-20 Transfer event topic',
  // Bitcoin
  '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa': 'Bitcoin genesis address',
  '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2': 'Bitcoin wiki example address',
  '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy': 'Bitcoin wiki example address',
  '1111111111111111111114oLvT2': 'Bitcoin burn address (all zero hash)',
  bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4: 'BIP-173 test vector',
  bc1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3qccfmv3: 'BIP-173 test vector',
  bc1ar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq: 'BIP-173 example address',
  bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0: 'BIP-350 test vector',
  bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh: 'widely copied documentation example',
  // Solana programs and mints
  '11111111111111111111111111111111': 'Solana System Program',
  ComputeBudget111111111111111111111111111111: 'Solana Compute Budget Program',
  SysvarRent111111111111111111111111111111111: 'Solana Rent sysvar',
  SysvarC1ock11111111111111111111111111111111: 'Solana Clock sysvar',
  // Others
  rrrrrrrrrrrrrrrrrrrrrhoLvTp: 'XRP ACCOUNT_ZERO',
  rrrrrrrrrrrrrrrrrrrrBZbvji: 'XRP ACCOUNT_ONE',
  AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAY5HFKQ: 'Algorand zero address',
  'ryjl3-tyaaa-aaaaa-aaaba-cai': 'ICP ledger canister',
  'xrb_3t6k35gi95xu6tergt6p69ck76ogmitsa8mnijtpxm9fkcm736xtoncuohr3': 'Nano genesis account',
  'nano_3t6k35gi95xu6tergt6p69ck76ogmitsa8mnijtpxm9fkcm736xtoncuohr3': 'Nano genesis account',
  zil1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq9yf6pz: 'Zilliqa zero address (the ZIL placeholder of token lists)',
  '0.0.2': 'Hedera treasury account',
  '0.0.98': 'Hedera fee account',
};

const LOOKUP = new Map(Object.entries(CONSTANTS).map(([k, v]) => [k.startsWith('0x') ? k.toLowerCase() : k, v]));
// Specification vectors of the generated data set (data/reference-data.json: BOLT #11 fallback addresses).
for (const v of REFERENCE_VECTORS) if (!LOOKUP.has(v.address)) LOOKUP.set(v.address.startsWith('0x') ? v.address.toLowerCase() : v.address, v.label);

/** Why this address is a known non-wallet, or undefined. Accepts the raw or normalised form. */
export function knownConstant(address: string, normalized?: string): string | undefined {
  return LOOKUP.get(address) ?? (normalized ? LOOKUP.get(normalized) : undefined) ?? (address.startsWith('0x') ? LOOKUP.get(address.toLowerCase()) : undefined);
}
