// `fip ssi wallet ...`: validate an address, scan a file or stdin, list networks, show the allowlist,
// export an investigation's wallets. Data goes to stdout, progress and diagnostics to stderr.
import fs from 'node:fs';
import type { Readable, Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { Command, Option } from 'commander';
import { CliUsageError } from '../cli-errors';
import type { QrImageType } from '../../domain/wallets/image-type';

function ssiGroup(program: Command): Command {
  return program.commands.find((c) => c.name() === 'ssi') ?? program.command('ssi').description('Scam-site investigations (SSI)');
}

function out(text: string): void {
  process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
}

async function readAll(stream: Readable, onChunk: (s: string) => void): Promise<number> {
  stream.setEncoding('utf8');
  let n = 0;
  for await (const chunk of stream as AsyncIterable<string>) {
    n += chunk.length;
    onChunk(chunk);
  }
  return n;
}

export function register(program: Command): void {
  const wallet = ssiGroup(program).command('wallet').description('Cryptocurrency wallet extraction tools');

  wallet
    .command('validate <address>')
    .description('Validate one address: exit 0 if valid, 1 if invalid, 2 on a usage error')
    .option('--network <name>', 'only this network (id, name or symbol, see `networks`)')
    .option('--json', 'print JSON')
    .action(async (address: string, opts: { network?: string; json?: boolean }) => {
      const { validateAddress } = await import('../../domain/wallets/validate-address');
      const { resolveNetworkName } = await import('../../domain/wallets/network-catalog');
      let networks;
      if (opts.network !== undefined) {
        networks = resolveNetworkName(opts.network);
        if (!networks.length) throw new CliUsageError(`unknown network: ${opts.network} (see \`fip ssi wallet networks\`)`);
      }
      const r = validateAddress(address, networks);
      if (opts.json) {
        out(JSON.stringify({
          input: r.input, valid: r.valid, normalized: r.normalized ?? null,
          matches: r.matches.map((m) => ({ network: m.network, network_id: m.networkId, tokens: m.tokens, format: m.format, checksum: m.checksum, checksum_strength: m.strength })),
          notes: r.notes,
        }, null, 2));
      } else if (r.valid) {
        for (const m of r.matches) out(`valid  ${m.network} (${m.networkId})  tokens: ${m.tokens.join(', ')}  format: ${m.format}  checksum: ${m.checksum}`);
        for (const n of r.notes) out(`note   ${n}`);
      } else {
        out(`invalid  ${r.notes.join('; ') || 'no supported format'}`);
      }
      if (!r.valid) process.exitCode = 1;
    });

  wallet
    .command('scan <file>')
    .description('Scan a text, HTML or e-mail file (or - for stdin) for wallet addresses, or a PNG/JPEG/WebP image for QR codes; large inputs are streamed')
    .option('--json', 'print a JSON array of {address, token, network, confidence, source, network_basis, token_basis, memo}')
    .option('--no-llm', 'deterministic verification only (no language model)')
    .option('--all', 'also list candidates removed by verification or the allowlist, and the readings of an address that lost to a stronger one, with the reason')
    .option('--coin-tab <label>', 'coin-tab label the page was captured under (e.g. BTC, USDT-TRC20)')
    .action(async (file: string, opts: { json?: boolean; llm: boolean; all?: boolean; coinTab?: string }) => {
      // Only what a scan needs is loaded: not the database or Temporal modules of other commands, and
      // the Anthropic SDK only when the LLM will be asked (together they were half a scan's start).
      const { cliConfig } = await import('../cli-config');
      const { loadWalletAllowlist } = await import('../../config/wallet-allowlist');
      const { WalletScanner } = await import('../../domain/wallets/wallet-scanner');
      const { finishExtraction, wantsLlm } = await import('../../services/wallets/wallet-extraction');
      const config = cliConfig();
      const allowlist = loadWalletAllowlist(config.ssi.allowlist_path);
      let input: Readable;
      let image: QrImageType | undefined;
      if (file === '-') input = process.stdin;
      else {
        if (!fs.existsSync(file)) throw new Error(`no such file: ${file}`);
        const head = Buffer.alloc(12);
        const fd = fs.openSync(file, 'r');
        fs.readSync(fd, head, 0, 12, 0);
        fs.closeSync(fd);
        image = (await import('../../domain/wallets/image-type')).sniffImageType(head);
        input = fs.createReadStream(file, { highWaterMark: 1 << 20 });
      }
      const started = Date.now();
      let chars: number;
      let deterministic;
      if (image) {
        // QR codes in the image: each payload goes through the same scanner, source `qr`.
        input.destroy();
        const { extractWalletsFromImages } = await import('../../services/wallets/qr-codes');
        const bytes = fs.readFileSync(file);
        chars = bytes.length;
        const r = await extractWalletsFromImages([bytes], { includeRejected: !!opts.all });
        process.stderr.write(`${image} image: ${r.qrCodes} QR code(s)\n`);
        deterministic = { findings: r.findings, rejected: r.rejected };
      } else {
        const scanner = new WalletScanner({ coinTab: opts.coinTab }, { includeRejected: !!opts.all });
        chars = await readAll(input, (s) => scanner.push(s));
        deterministic = scanner.end();
      }
      const warn = (m: string): void => void process.stderr.write(`warning: ${m}\n`);
      const settings = { anthropicApiKey: config.anthropic_api_key, anthropicBaseUrl: config.anthropic_base_url, model: config.ssi.llm_model, disableLlm: !opts.llm, warn };
      const verifier = wantsLlm(settings) ? (await import('../../services/wallets/llm-verifier-settings')).createLlmVerifierFromSettings(settings) : undefined;
      const result = await finishExtraction(deterministic, { verifier, allowlist: allowlist.pairs, keepRejected: !!opts.all });
      const secs = Math.max((Date.now() - started) / 1000, 0.001);
      process.stderr.write(`scanned ${(chars / 1e6).toFixed(2)} MB in ${secs.toFixed(2)} s: ${result.findings.length} wallet(s)` +
        `${opts.all ? `, ${result.rejected.length} rejected` : ''}${result.llm ? `, LLM: ${result.llm.sent} sent, ${result.llm.cacheHits} cached` : verifier ? '' : ', LLM: off'}\n`);
      const kept = result.findings.map((f) => ({
        address: f.address, token: f.token, network: f.network, confidence: f.confidence, source: f.source,
        network_basis: f.networkBasis, token_basis: f.tokenBasis, memo: f.memo ?? null,
      }));
      if (opts.json) {
        const rows: object[] = opts.all ? kept.map((k) => ({ ...k, status: 'kept', reason: null })) : kept;
        if (opts.all) {
          for (const r of result.rejected) {
            rows.push({ address: r.candidate, token: r.token ?? null, network: r.network ?? null, confidence: null, source: r.location, status: r.stage === 'resolution' ? 'alternative' : 'rejected', reason: `${r.stage}: ${r.reason}` });
          }
        }
        out(JSON.stringify(rows, null, 2));
        return;
      }
      for (const k of kept) out(`${k.confidence.padEnd(6)}  ${k.token.padEnd(5)}  ${k.network.padEnd(18)}  ${k.address}  [${k.source}]${k.network_basis === 'default' ? '  (network: default, nothing on the page names it)' : ''}${k.memo ? `  memo: ${k.memo}` : ''}`);
      if (opts.all) for (const r of result.rejected) out(`rejected  ${r.candidate}  [${r.location}]  ${r.stage}: ${r.reason}`);
    });

  wallet
    .command('networks')
    .description('Every supported network with its pattern(s) and checksum kind')
    .option('--json', 'print JSON')
    .action(async (opts: { json?: boolean }) => {
      const { NETWORKS } = await import('../../domain/wallets/network-catalog');
      if (opts.json) {
        out(JSON.stringify(NETWORKS.map((n) => ({ id: n.id, name: n.name, native_token: n.native, tokens: n.tokens, patterns: n.patterns, checksum: n.checksum })), null, 2));
        return;
      }
      for (const n of NETWORKS) out(`${n.id.padEnd(18)} ${n.name.padEnd(20)} ${n.tokens.join(',').padEnd(16)} ${n.checksum}\n${''.padEnd(19)}${n.patterns.join('   ')}`);
      process.stderr.write(`${NETWORKS.length} networks\n`);
    });

  wallet
    .command('allowlist')
    .description('The token-network allowlist as loaded (fails if the file is invalid)')
    .option('--json', 'print JSON')
    .action(async (opts: { json?: boolean }) => {
      const { cliConfig } = await import('../cli-config');
      const { loadWalletAllowlist } = await import('../../config/wallet-allowlist');
      const { networkInfo } = await import('../../domain/wallets/network-catalog');
      const list = loadWalletAllowlist(cliConfig().ssi.allowlist_path);
      if (opts.json) {
        out(JSON.stringify({ path: list.path, pairs: list.pairs.map((p) => ({ token: p.token, network: p.network, network_name: networkInfo(p.network).name })) }, null, 2));
        return;
      }
      for (const p of list.pairs) out(`${p.token.padEnd(6)} ${p.network.padEnd(18)} ${networkInfo(p.network).name}`);
      process.stderr.write(`${list.pairs.length} pairs from ${list.path}\n`);
    });

  wallet
    .command('export <scan_id>')
    .description("Export an investigation's wallets from the database")
    .addOption(new Option('--format <format>', 'xlsx, csv or json').choices(['xlsx', 'csv', 'json']).makeOptionMandatory())
    .option('--out <file>', 'write to this file instead of stdout')
    .action(async (scanId: string, opts: { format: 'xlsx' | 'csv' | 'json'; out?: string }) => {
      if (!scanId.trim()) throw new CliUsageError('scan_id must not be empty');
      const { withDatabase } = await import('../cli-runtime');
      const { exportScanWallets } = await import('../../services/wallets/wallet-service');
      const target: Writable = opts.out ? fs.createWriteStream(opts.out) : process.stdout;
      const count = await withDatabase(async (knex) => exportScanWallets({ knex }, scanId, opts.format, target));
      if (opts.out) {
        if (!target.writableEnded) target.end();
        await finished(target);
      }
      process.stderr.write(`exported ${count} wallet(s) of scan ${scanId}${opts.out ? ` to ${opts.out}` : ''}\n`);
    });
}
