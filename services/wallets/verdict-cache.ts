// Cache of language-model verdicts, keyed by address + allowed networks + a hash of the context
// snippet, so the same wallet shown in the same context (cloned scam kits) is not asked twice.
// In-memory LRU now; a DB-backed implementation can satisfy the same interface later.
import { createHash } from 'node:crypto';

export interface CachedVerdict {
  role: string;
  network: string | null;
  token: string | null;
  confidence: number;
}

export interface VerdictCache {
  get(key: string): Promise<CachedVerdict | undefined> | CachedVerdict | undefined;
  set(key: string, verdict: CachedVerdict): Promise<void> | void;
}

export function verdictCacheKey(address: string, allowedNetworks: readonly string[], snippet: string): string {
  const normalizedSnippet = snippet.toLowerCase().replace(/\s+/g, ' ').trim();
  return createHash('sha256').update(`${address}\u0000${[...allowedNetworks].sort().join(',')}\u0000${normalizedSnippet}`).digest('hex');
}

export class LruVerdictCache implements VerdictCache {
  private readonly map = new Map<string, CachedVerdict>();

  constructor(private readonly capacity = 10_000) {}

  get(key: string): CachedVerdict | undefined {
    const v = this.map.get(key);
    if (v) {
      this.map.delete(key);
      this.map.set(key, v);
    }
    return v;
  }

  set(key: string, verdict: CachedVerdict): void {
    this.map.delete(key);
    this.map.set(key, verdict);
    if (this.map.size > this.capacity) this.map.delete(this.map.keys().next().value as string);
  }

  get size(): number {
    return this.map.size;
  }
}
