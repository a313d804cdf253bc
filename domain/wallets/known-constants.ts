// Well-known strings that decode as valid addresses but are never a scam wallet: specification
// test vectors copied into pages, burn/zero/predeploy addresses, token contracts and mints, program
// ids. Compared on the normalised form (hex lower-cased).

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
  '0x4200000000000000000000000000000000000006': 'Base/Optimism WETH predeploy',
  '0x4200000000000000000000000000000000000010': 'Optimism bridge predeploy',
  '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee': 'native-token placeholder',
  // token contracts (a token contract is not a deposit wallet)
  '0xdac17f958d2ee523a2206206994597c13d831ec7': 'USDT token contract (Ethereum)',
  '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48': 'USDC token contract (Ethereum)',
  '0x6b175474e89094c44da98b954eedeac495271d0f': 'DAI token contract (Ethereum)',
  '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2': 'WETH token contract (Ethereum)',
  '0x55d398326f99059ff775485246999027b3197955': 'USDT token contract (BSC)',
  '0x8ac76a51cc950d9822d68b83fe1ad97b32cd580d': 'USDC token contract (BSC)',
  '0xbb4cdb9cbd36b01bd1cbaebf2de08d9173bc095c': 'WBNB token contract (BSC)',
  '0xc2132d05d31c914a87c6611c10748aeb04b58e8f': 'USDT token contract (Polygon)',
  '0x3c499c542cef5e3811e1192ce70d8cc03d5c3359': 'USDC token contract (Polygon)',
  '0x2791bca1f2de4661ed88a30c99a7a9449aa84174': 'USDC.e token contract (Polygon)',
  '0xfd086bc7cd5c481dcc9c85ebe478a1c0b69fcbb9': 'USDT token contract (Arbitrum)',
  '0xaf88d065e77c8cc2239327c5edb3a432268e5831': 'USDC token contract (Arbitrum)',
  '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913': 'USDC token contract (Base)',
  '0x9702230a8ea53601f5cd2dc00fdbc13d4df4a8c7': 'USDT token contract (Avalanche)',
  '0xb97ef9ef8734c71904d8002f8b6bc66dd9c48a6e': 'USDC token contract (Avalanche)',
  TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t: 'USDT token contract (Tron)',
  TEkxiTehnzSmSe2XqrBj4w32RUN966rdz8: 'USDC token contract (Tron)',
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
  TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA: 'Solana Token Program',
  TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb: 'Solana Token-2022 Program',
  ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL: 'Solana Associated Token Account Program',
  MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr: 'Solana Memo Program',
  ComputeBudget111111111111111111111111111111: 'Solana Compute Budget Program',
  So11111111111111111111111111111111111111112: 'Wrapped SOL mint',
  EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v: 'USDC mint (Solana)',
  Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB: 'USDT mint (Solana)',
  SysvarRent111111111111111111111111111111111: 'Solana Rent sysvar',
  SysvarC1ock11111111111111111111111111111111: 'Solana Clock sysvar',
  // Others
  rrrrrrrrrrrrrrrrrrrrrhoLvTp: 'XRP ACCOUNT_ZERO',
  rrrrrrrrrrrrrrrrrrrrBZbvji: 'XRP ACCOUNT_ONE',
  AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAY5HFKQ: 'Algorand zero address',
  'ryjl3-tyaaa-aaaaa-aaaba-cai': 'ICP ledger canister',
  'xrb_3t6k35gi95xu6tergt6p69ck76ogmitsa8mnijtpxm9fkcm736xtoncuohr3': 'Nano genesis account',
  'nano_3t6k35gi95xu6tergt6p69ck76ogmitsa8mnijtpxm9fkcm736xtoncuohr3': 'Nano genesis account',
  '0.0.2': 'Hedera treasury account',
  '0.0.98': 'Hedera fee account',
};

const LOOKUP = new Map(Object.entries(CONSTANTS).map(([k, v]) => [k.startsWith('0x') ? k.toLowerCase() : k, v]));

/** Why this address is a known non-wallet, or undefined. Accepts the raw or normalised form. */
export function knownConstant(address: string, normalized?: string): string | undefined {
  return LOOKUP.get(address) ?? (normalized ? LOOKUP.get(normalized) : undefined) ?? (address.startsWith('0x') ? LOOKUP.get(address.toLowerCase()) : undefined);
}
