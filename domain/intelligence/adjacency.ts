// The relationship graph held in memory for breadth-first traversal: every edge's id, ends, kind
// and weight in typed arrays, and each node's edges in both directions, heaviest first (ties by
// edge id), so that a level of the traversal reads a node's heaviest edges without a query.
//
// Layout (about 56 bytes per edge and 40 per node, all outside the JS heap's traced objects, so a
// million-node graph adds nothing for the garbage collector to walk):
// - ids are UUIDs kept as four 32-bit words, found through open-addressing hash tables;
// - adjacency is compressed sparse rows (one Int32Array of edge numbers per direction, sliced by
//   node) built once, plus an overlay of rewritten lists for the nodes whose edges changed since.
//
// The traversal has the semantics of db/repositories/intelligence/graph-traversal-repository.ts (the SQL
// reference, whose answers the tests compare with this one's): per level, each frontier node's
// `remaining + 1` heaviest edges per direction that pass the filters; new nodes are taken in order
// of weight (then edge id) until max_nodes; `truncated` when a cap cut the answer.
import { RELATIONSHIP_KINDS, type RelationshipKind } from './entity-types';

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
const EMPTY: Int32Array = new Int32Array(0);

const HEX8 = /^[0-9a-fA-F]{8}$/;

/** 8 hex digits as a 32-bit word; NaN when they are not hex. */
function hexWord(digits: string): number {
  return HEX8.test(digits) ? parseInt(digits, 16) >>> 0 : NaN;
}

/** The four big-endian 32-bit words of a canonical UUID string; null when it is not one. */
export function uuidWords(s: string): [number, number, number, number] | null {
  if (s.length !== 36 || s[8] !== '-' || s[13] !== '-' || s[18] !== '-' || s[23] !== '-') return null;
  const w0 = hexWord(s.slice(0, 8));
  const w1 = hexWord(s.slice(9, 13) + s.slice(14, 18));
  const w2 = hexWord(s.slice(19, 23) + s.slice(24, 28));
  const w3 = hexWord(s.slice(28));
  return Number.isNaN(w0 + w1 + w2 + w3) ? null : [w0, w1, w2, w3];
}

function uuidString(words: Uint32Array, at: number): string {
  const a = words[at]!;
  const b = words[at + 1]!;
  const c = words[at + 2]!;
  const d = words[at + 3]!;
  return (
    HEX[a >>> 24]! + HEX[(a >>> 16) & 255]! + HEX[(a >>> 8) & 255]! + HEX[a & 255]! + '-' +
    HEX[b >>> 24]! + HEX[(b >>> 16) & 255]! + '-' + HEX[(b >>> 8) & 255]! + HEX[b & 255]! + '-' +
    HEX[c >>> 24]! + HEX[(c >>> 16) & 255]! + '-' + HEX[(c >>> 8) & 255]! + HEX[c & 255]! +
    HEX[d >>> 24]! + HEX[(d >>> 16) & 255]! + HEX[(d >>> 8) & 255]! + HEX[d & 255]!
  );
}

function hash(w0: number, w1: number, w2: number, w3: number): number {
  let h = Math.imul(w3 ^ 0x9e3779b9, 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13) ^ w2, 0xc2b2ae35);
  h = Math.imul(h ^ (h >>> 16) ^ w1, 0x27d4eb2f);
  h = Math.imul(h ^ (h >>> 15) ^ w0, 0x165667b1);
  return (h ^ (h >>> 16)) >>> 0;
}

/** UUIDs numbered 0, 1, 2, ... with lookup by value. */
class IdTable {
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
async function sliced(count: number, size: number, body: (from: number, to: number) => void): Promise<void> {
  for (let from = 0; from < count; from += size) {
    body(from, Math.min(count, from + size));
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

function grow<T extends Int32Array | Uint32Array | Uint8Array>(a: T, atLeast: number): T {
  let size = Math.max(a.length, 16);
  while (size < atLeast) size *= 2;
  const b = new (a.constructor as new (n: number) => T)(size);
  b.set(a);
  return b;
}


export interface AdjacencyTraversal {
  /** Node numbers kept, with the level at which each was reached (seeds 0), by depth then id. */
  nodes: Array<{ node: number; depth: number }>;
  /** Edge numbers kept, with the level at which each was first read, by depth, weight (heaviest first), id. */
  edges: Array<{ edge: number; depth: number }>;
  truncated: boolean;
}

export interface AdjacencyTraversalOptions {
  depth: number;
  maxNodes: number;
  edgeKinds?: readonly RelationshipKind[];
  minWeight?: number;
}

/** A node's edges in one direction: entries [edge, other end, weight] from `from` to `to` (exclusive) of `list`. */
interface Slice {
  list: Int32Array;
  from: number;
  to: number;
}

const STRIDE = 3;

export class GraphAdjacency {
  readonly nodes = new IdTable();
  private readonly edgeIds = new IdTable();
  private src = new Int32Array(1024);
  private dst = new Int32Array(1024);
  private weight = new Int32Array(1024);
  private kind = new Uint8Array(1024);
  // Edges [0, idOrdered) are numbered in id order (buildIndex renumbers them), so that ties of
  // weight compare by number; later edges compare by their ids' words.
  private idOrdered = 0;
  private nodesIdOrdered = 0;
  private unindexed = false;
  // Compressed rows for nodes [0, indexedNodes): node n's entries are [start[n], start[n + 1]) of
  // the list, each [edge, other end, weight] side by side, so a level reads one run of memory per
  // node instead of three arrays at random places.
  private indexedNodes = 0;
  private readonly out = { start: new Int32Array(1), list: EMPTY, overlay: new Map<number, Int32Array>() };
  private readonly in = { start: new Int32Array(1), list: EMPTY, overlay: new Map<number, Int32Array>() };

  get edgeCount(): number {
    return this.edgeIds.count;
  }

  get nodeCount(): number {
    return this.nodes.count;
  }

  /** Nodes whose lists were rewritten since the index was built (a measure of drift). */
  get overlaidNodes(): number {
    return new Set([...this.out.overlay.keys(), ...this.in.overlay.keys()]).size;
  }

  /** Room for this many edges and nodes, before a bulk load. */
  reserve(edges: number, nodes: number): void {
    this.edgeIds.reserve(edges);
    this.nodes.reserve(nodes);
    this.ensureEdgeRoom(edges);
  }

  /**
   * Adds an edge of a bulk load (ids unique, as a table's primary key makes them), without
   * touching the adjacency lists; buildIndex() makes it findable and traversable.
   */
  loadEdge(id: readonly number[], src: readonly number[], dst: readonly number[], kind: number, weight: number): void {
    const e = this.edgeIds.append(id[0]!, id[1]!, id[2]!, id[3]!);
    this.ensureEdgeRoom(e + 1);
    this.src[e] = this.nodes.intern(src[0]!, src[1]!, src[2]!, src[3]!);
    this.dst[e] = this.nodes.intern(dst[0]!, dst[1]!, dst[2]!, dst[3]!);
    this.kind[e] = kind;
    this.weight[e] = weight;
    this.unindexed = true;
  }

  /**
   * Numbers the loaded edges and nodes in id order and builds every node's lists, heaviest first;
   * clears the overlay. Gives the event loop a turn every few milliseconds.
   */
  async buildIndex(): Promise<void> {
    const m = this.edgeIds.count;
    const order = await this.edgeIds.idOrder();
    await this.edgeIds.permute(order);
    const permuted = async <T extends Int32Array | Uint8Array>(a: T): Promise<T> => {
      const b = new (a.constructor as new (n: number) => T)(a.length);
      await sliced(m, 524_288, (first, last) => {
        for (let k = first; k < last; k++) b[k] = a[order[k]!]!;
      });
      return b;
    };
    this.src = await permuted(this.src);
    this.dst = await permuted(this.dst);
    this.weight = await permuted(this.weight);
    this.kind = await permuted(this.kind);
    this.idOrdered = m;
    // Nodes too, so that an answer's nodes sort by number.
    const n = this.nodes.count;
    const nodeOrder = await this.nodes.idOrder();
    await this.nodes.permute(nodeOrder);
    const renumbered = new Int32Array(n);
    for (let k = 0; k < n; k++) renumbered[nodeOrder[k]!] = k;
    await sliced(m, 524_288, (first, last) => {
      for (let e = first; e < last; e++) {
        this.src[e] = renumbered[this.src[e]!]!;
        this.dst[e] = renumbered[this.dst[e]!]!;
      }
    });
    this.nodesIdOrdered = n;
    const build = async (end: Int32Array, other: Int32Array) => {
      const start = new Int32Array(n + 1);
      for (let e = 0; e < m; e++) start[end[e]! + 1]!++;
      for (let i = 0; i < n; i++) start[i + 1]! += start[i]!;
      const fill = start.slice(0, n);
      const list = new Int32Array(STRIDE * m);
      // In edge order, so each node's entries start in id order; the sort below keeps ties so.
      await sliced(m, 524_288, (first, last) => {
        for (let e = first; e < last; e++) {
          const at = STRIDE * fill[end[e]!]!++;
          list[at] = e;
          list[at + 1] = other[e]!;
          list[at + 2] = this.weight[e]!;
        }
      });
      await sliced(n, 32_768, (first, last) => {
        for (let i = first; i < last; i++) this.sortEntries(list, start[i]!, start[i + 1]!);
      });
      return { start, list };
    };
    const out = await build(this.src, this.dst);
    const inn = await build(this.dst, this.src);
    Object.assign(this.out, out);
    Object.assign(this.in, inn);
    this.out.overlay.clear();
    this.in.overlay.clear();
    this.indexedNodes = n;
    this.unindexed = false;
  }

  /**
   * Adds or updates edges after the index was built (a change feed's rows): each touched node's
   * lists are rewritten once, heaviest first, into the overlay.
   */
  applyChanges(changes: ReadonlyArray<{ id: string; src: string; dst: string; kind: RelationshipKind; weight: number }>): void {
    if (this.unindexed) throw new Error('applyChanges before buildIndex');
    const changedOut = new Map<number, Set<number>>();
    const changedIn = new Map<number, Set<number>>();
    const note = (byNode: Map<number, Set<number>>, node: number, e: number) => {
      let set = byNode.get(node);
      if (!set) byNode.set(node, (set = new Set()));
      set.add(e);
    };
    for (const c of changes) {
      const id = uuidWords(c.id);
      const s = uuidWords(c.src);
      const d = uuidWords(c.dst);
      const k = RELATIONSHIP_KINDS.indexOf(c.kind);
      if (!id || !s || !d || k < 0) throw new Error(`not an edge: ${JSON.stringify(c)}`);
      // An edge's ends never change (the row's key is its ends and kind); its weight does.
      const e = this.edgeIds.intern(id[0], id[1], id[2], id[3]);
      this.ensureEdgeRoom(e + 1);
      this.src[e] = this.nodes.intern(s[0], s[1], s[2], s[3]);
      this.dst[e] = this.nodes.intern(d[0], d[1], d[2], d[3]);
      this.kind[e] = k;
      this.weight[e] = c.weight;
      note(changedOut, this.src[e]!, e);
      note(changedIn, this.dst[e]!, e);
    }
    // Each touched node's list: its old entries but the changed edges, plus the changed edges with their new weights.
    const rewrite = (side: { overlay: Map<number, Int32Array> }, changed: Map<number, Set<number>>, dir: 0 | 1, other: Int32Array) => {
      for (const [node, edges] of changed) {
        const old = this.slice(node, dir);
        const kept: number[] = [];
        for (let i = old.from; i < old.to; i++) if (!edges.has(old.list[STRIDE * i]!)) kept.push(old.list[STRIDE * i]!);
        const all = [...kept, ...edges].sort((a, b) => this.compareEdges(a, b));
        const list = new Int32Array(STRIDE * all.length);
        all.forEach((e, i) => {
          list[STRIDE * i] = e;
          list[STRIDE * i + 1] = other[e]!;
          list[STRIDE * i + 2] = this.weight[e]!;
        });
        side.overlay.set(node, list);
      }
    };
    rewrite(this.out, changedOut, 0, this.dst);
    rewrite(this.in, changedIn, 1, this.src);
  }

  edgeId(e: number): string {
    return this.edgeIds.string(e);
  }

  edgeFields(e: number): { src: number; dst: number; kind: RelationshipKind; weight: number } {
    return { src: this.src[e]!, dst: this.dst[e]!, kind: RELATIONSHIP_KINDS[this.kind[e]!]!, weight: this.weight[e]! };
  }

  /** The number of a node by its UUID; -1 when it has no edge here. */
  nodeNumber(uuid: string): number {
    const w = uuidWords(uuid.toLowerCase());
    return w ? this.nodes.find(w[0], w[1], w[2], w[3]) : -1;
  }

  /**
   * Breadth-first from `seeds` (node numbers; a negative number stands for a seed with no edge,
   * which stays alone), with the SQL reference's caps and filters.
   */
  traverse(seeds: readonly number[], opts: AdjacencyTraversalOptions): AdjacencyTraversal {
    if (this.unindexed) throw new Error('traverse before buildIndex');
    const depthOf = new Map<number, number>();
    for (const s of seeds.slice(0, opts.maxNodes)) depthOf.set(s, 0);
    let truncated = seeds.length > opts.maxNodes;
    const filterKinds = (opts.edgeKinds?.length ?? 0) > 0;
    const kindOk = new Uint8Array(RELATIONSHIP_KINDS.length);
    for (const k of opts.edgeKinds ?? []) kindOk[RELATIONSHIP_KINDS.indexOf(k)] = 1;
    const minWeight = opts.minWeight ?? 0;
    const edgeDepth = new Map<number, number>();
    let frontier = [...depthOf.keys()];
    const { kind } = this;

    for (let level = 1; level <= opts.depth && frontier.length > 0; level++) {
      const perNode = Math.max(opts.maxNodes - depthOf.size, 0) + 1;
      // What this level read: edge, its other end and its weight, side by side.
      const readEdge: number[] = [];
      const readOther: number[] = [];
      const readWeight: number[] = [];
      for (const f of frontier) {
        if (f < 0) continue;
        for (let dir = 0; dir < 2; dir++) {
          const side = dir === 0 ? this.out : this.in;
          const overlaid = side.overlay.size > 0 ? side.overlay.get(f) : undefined;
          const list = overlaid ?? side.list;
          const from = overlaid ? 0 : f < this.indexedNodes ? side.start[f]! : 0;
          const to = overlaid ? overlaid.length / STRIDE : f < this.indexedNodes ? side.start[f + 1]! : 0;
          let taken = 0;
          for (let i = from; i < to && taken < perNode; i++) {
            const w = list[STRIDE * i + 2]!;
            if (w < minWeight) break; // heaviest first: the rest are lighter
            const e = list[STRIDE * i]!;
            if (filterKinds && kindOk[kind[e]!] === 0) continue;
            readEdge.push(e);
            readOther.push(list[STRIDE * i + 1]!);
            readWeight.push(w);
            taken++;
          }
          if (taken >= perNode) truncated = true;
        }
      }
      const order = Array.from(readEdge.keys()).sort(
        (a, b) => readWeight[b]! - readWeight[a]! || this.compareIds(readEdge[a]!, readEdge[b]!),
      );
      const next: number[] = [];
      for (const i of order) {
        const e = readEdge[i]!;
        const other = readOther[i]!;
        if (!depthOf.has(other)) {
          if (depthOf.size >= opts.maxNodes) {
            truncated = true;
            continue;
          }
          depthOf.set(other, level);
          next.push(other);
        }
        if (!edgeDepth.has(e)) edgeDepth.set(e, level);
      }
      frontier = next;
    }
    // The answer's order. Edges were kept level by level, each level heaviest first then by id:
    // that is already it (and both ends of a kept edge are kept nodes). Nodes by depth, then id:
    // node numbers follow ids, so each depth sorts as plain numbers unless a seed has no edge
    // (negative) or a node came after the build.
    const byDepth: number[][] = [];
    for (const [node, depth] of depthOf) (byDepth[depth] ??= []).push(node);
    const nodes: Array<{ node: number; depth: number }> = [];
    for (const [depth, members] of byDepth.entries()) {
      if (!members) continue;
      const numeric = members.every((n) => n >= 0 && n < this.nodesIdOrdered);
      const sorted = numeric ? Int32Array.from(members).sort() : members.sort((a, b) => this.compareNodeIds(a, b));
      for (const node of sorted) nodes.push({ node, depth });
    }
    const edges: Array<{ edge: number; depth: number }> = [];
    for (const [edge, depth] of edgeDepth) edges.push({ edge, depth });
    return { nodes, edges, truncated };
  }

  private slice(node: number, dir: 0 | 1): Slice {
    const side = dir === 0 ? this.out : this.in;
    const overlaid = side.overlay.get(node);
    if (overlaid) return { list: overlaid, from: 0, to: overlaid.length / STRIDE };
    if (node >= this.indexedNodes) return { list: EMPTY, from: 0, to: 0 };
    return { list: side.list, from: side.start[node]!, to: side.start[node + 1]! };
  }

  /** Node ids in PostgreSQL's uuid order (negative numbers, seeds with no edge, first: the caller places them). */
  private compareNodeIds(a: number, b: number): number {
    if (a < 0 || b < 0) return a - b;
    return a < this.nodesIdOrdered && b < this.nodesIdOrdered ? a - b : this.nodes.compare(a, b);
  }

  /** Edge ids in PostgreSQL's uuid order: by number for edges numbered in id order, else by words. */
  private compareIds(a: number, b: number): number {
    return a < this.idOrdered && b < this.idOrdered ? a - b : this.edgeIds.compare(a, b);
  }

  /** Heaviest first, then by edge id. */
  private compareEdges(a: number, b: number): number {
    return this.weight[b]! - this.weight[a]! || this.compareIds(a, b);
  }

  /** Sorts entries [from, to) of `list` heaviest first; entries of equal weight keep their order (id order). */
  private sortEntries(list: Int32Array, from: number, to: number): void {
    if (to - from < 2) return;
    if (to - from <= 16) {
      for (let i = from + 1; i < to; i++) {
        const e = list[STRIDE * i]!;
        const o = list[STRIDE * i + 1]!;
        const w = list[STRIDE * i + 2]!;
        let j = i - 1;
        while (j >= from && list[STRIDE * j + 2]! < w) {
          list.copyWithin(STRIDE * (j + 1), STRIDE * j, STRIDE * j + STRIDE);
          j--;
        }
        list[STRIDE * (j + 1)] = e;
        list[STRIDE * (j + 1) + 1] = o;
        list[STRIDE * (j + 1) + 2] = w;
      }
      return;
    }
    const entries = Array.from({ length: to - from }, (_, k) => from + k).sort(
      (a, b) => list[STRIDE * b + 2]! - list[STRIDE * a + 2]! || list[STRIDE * a]! - list[STRIDE * b]!,
    );
    const pristine = list.slice(STRIDE * from, STRIDE * to);
    entries.forEach((at, k) => {
      const src = STRIDE * (at - from);
      const dst = STRIDE * (from + k);
      list[dst] = pristine[src]!;
      list[dst + 1] = pristine[src + 1]!;
      list[dst + 2] = pristine[src + 2]!;
    });
  }

  private ensureEdgeRoom(n: number): void {
    if (n <= this.src.length) return;
    this.src = grow(this.src, n);
    this.dst = grow(this.dst, n);
    this.weight = grow(this.weight, n);
    this.kind = grow(this.kind, n);
  }
}
