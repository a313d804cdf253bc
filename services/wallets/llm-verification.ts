// Stage 2 (language model) of wallet extraction: one batched Messages API request per document,
// candidates by id with their context snippet, structured output through a forced tool call. The
// answer is re-checked (known ids only, networks the decoder allows, evidence quoted from the
// candidate's own snippet) and can only narrow what the deterministic stage decided: it may drop a
// candidate that is not already high-confidence, or pick a network/token among the allowed ones.
// It never adds a candidate and never writes an address. Verdicts are cached.
import type Anthropic from '@anthropic-ai/sdk';
import { z } from 'zod';
import { networkInfo } from '../../domain/wallets/network-catalog';
import type { ExtractionResult, NetworkId, RejectedCandidate, WalletFinding } from '../../domain/wallets/wallet-types';
import { buildUserMessage, looksLikeInjection, type PromptCandidate, ROLES, SYSTEM_PROMPT, TOOL_NAME, TOOL_SCHEMA } from './llm-prompt';
import { type CachedVerdict, type VerdictCache, verdictCacheKey } from './verdict-cache';

export interface LlmVerifierDeps {
  client: Anthropic;
  model: string;
  cache: VerdictCache;
  /** Most candidates per request; a page with more is sent in several requests. */
  maxCandidatesPerRequest?: number;
  maxTokens?: number;
  /** Diagnostics (stderr in the CLI, a logger in workers). */
  warn?: (message: string) => void;
}

export interface LlmVerificationStats {
  sent: number;
  cacheHits: number;
  requests: number;
  skippedInjection: number;
  ignoredVerdicts: number;
  failedRequests: number;
}

export interface VerifiedResult extends ExtractionResult {
  llm: LlmVerificationStats;
}

const verdictSchema = z.object({
  id: z.string(),
  role: z.enum(ROLES),
  network: z.string().nullable(),
  token: z.string().nullable(),
  evidence: z.string(),
  confidence: z.number().min(0).max(1),
});

const KEEP_ROLES = new Set(['scam_payment_destination', 'unclear']);

/** Candidates the deterministic stage already accepted with full confidence are not second-guessed. */
function autoAccepted(f: WalletFinding): boolean {
  return f.confidence === 'high' && f.networkBasis !== 'default';
}

export function createWalletLlmVerifier(deps: LlmVerifierDeps) {
  const warn = deps.warn ?? (() => undefined);
  const perRequest = deps.maxCandidatesPerRequest ?? 40;

  async function ask(batch: PromptCandidate[], page: { url?: string; title?: string }, stats: LlmVerificationStats): Promise<Map<string, z.infer<typeof verdictSchema>>> {
    const out = new Map<string, z.infer<typeof verdictSchema>>();
    stats.requests++;
    let response: Anthropic.Messages.Message;
    try {
      response = await deps.client.messages.create({
        model: deps.model,
        max_tokens: deps.maxTokens ?? 4096,
        system: SYSTEM_PROMPT,
        tools: [{ name: TOOL_NAME, description: 'Record one label per candidate id.', input_schema: TOOL_SCHEMA }],
        tool_choice: { type: 'tool', name: TOOL_NAME },
        messages: [{ role: 'user', content: buildUserMessage(batch, page) }],
      });
    } catch (err) {
      stats.failedRequests++;
      warn(`wallet LLM verification failed, keeping deterministic verdicts: ${err instanceof Error ? err.message : String(err)}`);
      return out;
    }
    const block = response.content.find((b) => b.type === 'tool_use' && b.name === TOOL_NAME);
    const input = block && block.type === 'tool_use' ? (block.input as { candidates?: unknown }) : undefined;
    if (!input || !Array.isArray(input.candidates)) {
      stats.failedRequests++;
      warn('wallet LLM verification: reply without a usable tool call, keeping deterministic verdicts');
      return out;
    }
    const byId = new Map(batch.map((c) => [c.id, c]));
    for (const raw of input.candidates) {
      const parsed = verdictSchema.safeParse(raw);
      const candidate = parsed.success ? byId.get(parsed.data.id) : undefined;
      if (!parsed.success || !candidate || out.has(parsed.data.id)) {
        stats.ignoredVerdicts++;
        continue;
      }
      const v = parsed.data;
      const evidence = v.evidence.trim().toLowerCase();
      if (evidence && !candidate.finding.context.toLowerCase().includes(evidence)) {
        stats.ignoredVerdicts++; // a quote that is not in the snippet: the label is not grounded
        continue;
      }
      out.set(v.id, v);
    }
    return out;
  }

  /** Applies one verdict to one finding; returns the finding to keep or a rejection. */
  function apply(f: WalletFinding, v: CachedVerdict, stats: LlmVerificationStats): { keep?: WalletFinding; reject?: RejectedCandidate } {
    if (!KEEP_ROLES.has(v.role) && !autoAccepted(f)) {
      return { reject: { candidate: f.address, reason: `llm: ${v.role}`, networks: f.allowedNetworks, location: f.location, offset: f.offset, stage: 'llm' } };
    }
    let next = f;
    const network = v.network?.toLowerCase() as NetworkId | undefined;
    if (network && !f.allowedNetworks.includes(network)) stats.ignoredVerdicts++; // a network the decoder rules out
    else if (network && (f.networkBasis === 'default' || f.networkBasis === 'context')) {
      // The model may only decide what the page did not state: a default or nearby-words network,
      // never one stated by the format, coin tab, payment URI, attribute, explorer link or structure.
      const info = networkInfo(network);
      next = { ...next, networkId: network, network: info.name, networkBasis: 'context', token: info.tokens.includes(next.token) ? next.token : info.native };
    }
    const token = v.token?.toUpperCase();
    const tokenOpen = next.tokenBasis === 'native' || next.tokenBasis === 'context' || next !== f;
    if (token && tokenOpen && networkInfo(next.networkId).tokens.includes(token)) next = { ...next, token, tokenBasis: 'context' };
    return { keep: next };
  }

  return {
    async verify(result: ExtractionResult, page: { url?: string; title?: string } = {}): Promise<VerifiedResult> {
      const stats: LlmVerificationStats = { sent: 0, cacheHits: 0, requests: 0, skippedInjection: 0, ignoredVerdicts: 0, failedRequests: 0 };
      const verdicts = new Map<WalletFinding, CachedVerdict>();
      const toAsk: PromptCandidate[] = [];
      const keys = new Map<WalletFinding, string>();
      for (const f of result.findings) {
        if (autoAccepted(f)) continue;
        if (looksLikeInjection(f.context)) {
          stats.skippedInjection++; // judged on deterministic evidence alone, and its text never reaches the model
          continue;
        }
        const key = verdictCacheKey(f.address, f.allowedNetworks, f.context);
        keys.set(f, key);
        const cached = await deps.cache.get(key);
        if (cached) {
          stats.cacheHits++;
          verdicts.set(f, cached);
        } else toAsk.push({ id: `c${toAsk.length + 1}`, finding: f });
      }
      for (let i = 0; i < toAsk.length; i += perRequest) {
        const batch = toAsk.slice(i, i + perRequest);
        stats.sent += batch.length;
        const answers = await ask(batch, page, stats);
        for (const c of batch) {
          const v = answers.get(c.id);
          if (!v) continue;
          const verdict: CachedVerdict = { role: v.role, network: v.network, token: v.token, confidence: v.confidence };
          verdicts.set(c.finding, verdict);
          await deps.cache.set(keys.get(c.finding) as string, verdict);
        }
      }
      const findings: WalletFinding[] = [];
      const rejected = [...result.rejected];
      for (const f of result.findings) {
        const v = verdicts.get(f);
        if (!v) {
          findings.push(f);
          continue;
        }
        const r = apply(f, v, stats);
        if (r.keep) findings.push(r.keep);
        if (r.reject) rejected.push(r.reject);
      }
      return { findings, rejected, llm: stats };
    },
  };
}

export type WalletLlmVerifier = ReturnType<typeof createWalletLlmVerifier>;
