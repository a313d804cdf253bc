// The id tables of the in-memory graph (adjacency.ts): UUIDs numbered 0, 1, 2, ... in typed arrays,
// found through an open-addressing hash table, renumbered in id order once a bulk load is done;
// and the typed-array helpers the graph's build shares with them (growth, work sliced so that the
// event loop gets a turn).
import { uuidString } from './uuid-words';

function hash(w0: number, w1: number, w2: number, w3: number): number {
  let h = Math.imul(w3 ^ 0x9e3779b9, 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13) ^ w2, 0xc2b2ae35);
  h = Math.imul(h ^ (h >>> 16) ^ w1, 0x27d4eb2f);
  h = Math.imul(h ^ (h >>> 15) ^ w0, 0x165667b1);
  return (h ^ (h >>> 16)) >>> 0;
}

/** UUIDs numbered 0, 1, 2, ... with lookup by value. */
export class IdTable {
  words = new Uint32Array(4 * 1024);
  count = 0;
  private slots = new Int32Array(2048); // number + 1; 0 is empty
  private mask = 2047;

  find(w0: number, w1: number, w2: number, w3: number): number {
    const { words, slots, mask } = this;
    for (let i = hash(w0, w1, w2, w3) & mask; ; i = (i + 1) & mask) {
      const n = slots[i]! - 1;
      if (n < 0) return -1;
      const a = 4 * n;
      if (words[a] === w0 && words[a + 1] === w1 && words[a + 2] === w2 && words[a + 3] === w3) return n;
    }
  }

  /** The number of this id, added when new. */
  intern(w0: number, w1: number, w2: number, w3: number): number {
    const found = this.find(w0, w1, w2, w3);
    if (found >= 0) return found;
    const n = this.append(w0, w1, w2, w3);
    if (2 * this.count > this.slots.length) this.rehash(this.count);
    else this.place(n);
    return n;
  }

  /** Adds an id known to be new without making it findable: permute() after a bulk of these (buildIndex does). */
  append(w0: number, w1: number, w2: number, w3: number): number {
    const n = this.count++;
    if (4 * this.count > this.words.length) this.words = grow(this.words, 4 * this.count);
    const a = 4 * n;
    this.words[a] = w0;
    this.words[a + 1] = w1;
    this.words[a + 2] = w2;
    this.words[a + 3] = w3;
    return n;
  }

  string(n: number): string {
    return uuidString(this.words, 4 * n);
  }

  /** Compares ids n and m as PostgreSQL orders uuids (byte by byte). */
  compare(n: number, m: number): number {
    const w = this.words;
    for (let k = 0; k < 4; k++) {
      const d = w[4 * n + k]! - w[4 * m + k]!;
      if (d !== 0) return d;
    }
    return 0;
  }

  /** Numbers 0..count-1 in id order. */
  async idOrder(): Promise<Int32Array> {
    // Buckets on the top 16 bits, then each bucket (a few dozen ids for random UUIDs) sorted whole.
    const buckets = new Int32Array(65_537);
    const w = this.words;
    const count = this.count;
    for (let n = 0; n < count; n++) buckets[(w[4 * n]! >>> 16) + 1]!++;
    for (let b = 0; b < 65_536; b++) buckets[b + 1]! += buckets[b]!;
    const order = new Int32Array(count);
    const fill = buckets.slice(0, 65_536);
    for (let n = 0; n < count; n++) order[fill[w[4 * n]! >>> 16]!++] = n;
    // Within a bucket, by the next 48 bits (exact in a double), then by all 128 on a tie.
    const key = (n: number) => (w[4 * n]! & 0xffff) * 4294967296 + w[4 * n + 1]!;
    await sliced(65_536, 1024, (first, last) => {
      for (let b = first; b < last; b++) {
        const from = buckets[b]!;
        const to = buckets[b + 1]!;
        if (to - from < 2) continue;
        const members = Array.from(order.subarray(from, to), (n) => ({ n, k: key(n) }));
        members.sort((x, y) => x.k - y.k || this.compare(x.n, y.n));
        for (let i = 0; i < members.length; i++) order[from + i] = members[i]!.n;
      }
    });
    return order;
  }

  /** Renumbers: the id numbered order[k] becomes number k. */
  async permute(order: Int32Array): Promise<void> {
    const words = new Uint32Array(this.words.length);
    const from = this.words;
    await sliced(order.length, 262_144, (first, last) => {
      for (let k = first; k < last; k++) {
        const a = 4 * order[k]!;
        words[4 * k] = from[a]!;
        words[4 * k + 1] = from[a + 1]!;
        words[4 * k + 2] = from[a + 2]!;
        words[4 * k + 3] = from[a + 3]!;
      }
    });
    this.words = words;
    this.clearSlots(this.slotsFor(this.count));
    await sliced(this.count, 262_144, (first, last) => {
      for (let n = first; n < last; n++) this.place(n);
    });
  }

  reserve(n: number): void {
    if (4 * n > this.words.length) this.words = grow(this.words, 4 * n);
    if (this.slotsFor(n) > this.slots.length) this.rehash(Math.max(n, this.count));
  }

  /** Rebuilds the slots for `ids` ids (at least those held). */
  private rehash(ids: number): void {
    this.clearSlots(this.slotsFor(ids));
    for (let n = 0; n < this.count; n++) this.place(n);
  }

  /** Slots for n ids: a power of two, at least twice n (at most half full), never fewer than now. */
  private slotsFor(n: number): number {
    let size = this.slots.length;
    while (size < 2 * n) size *= 2;
    return size;
  }

  private clearSlots(size: number): void {
    this.slots = new Int32Array(size);
    this.mask = size - 1;
  }

  private place(n: number): void {
    const { words, slots, mask } = this;
    const a = 4 * n;
    let i = hash(words[a]!, words[a + 1]!, words[a + 2]!, words[a + 3]!) & mask;
    while (slots[i] !== 0) i = (i + 1) & mask;
    slots[i] = n + 1;
  }
}

/**
 * Runs `body` over [0, count) in slices, giving the event loop a turn between them: building the
 * index of millions of edges takes seconds, during which an API process must go on answering.
 */
export async function sliced(count: number, size: number, body: (from: number, to: number) => void): Promise<void> {
  for (let from = 0; from < count; from += size) {
    body(from, Math.min(count, from + size));
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

export function grow<T extends Int32Array | Uint32Array | Uint8Array>(a: T, atLeast: number): T {
  let size = Math.max(a.length, 16);
  while (size < atLeast) size *= 2;
  const b = new (a.constructor as new (n: number) => T)(size);
  b.set(a);
  return b;
}
