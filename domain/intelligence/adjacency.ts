// The relationship graph held in memory for breadth-first traversal: every edge's id, ends, kind
// and weight in typed arrays, and each node's edges in both directions, heaviest first (ties by
// edge id), so that a level of the traversal reads a node's heaviest edges without a query.
//
// Layout (about 56 bytes per edge and 40 per node, all outside the JS heap's traced objects, so a
// million-node graph adds nothing for the garbage collector to walk):
// - ids are UUIDs kept as four 32-bit words, found through open-addressing hash tables
//   (id-table.ts, uuid-words.ts);
// - adjacency is compressed sparse rows (one Int32Array of edge numbers per direction, sliced by
//   node) built once, plus an overlay of rewritten lists for the nodes whose edges changed since.
//
// The traversal has the semantics of db/repositories/intelligence/graph-traversal-repository.ts (the SQL
// reference, whose answers the tests compare with this one's): per level, each frontier node's
// `remaining + 1` heaviest edges per direction that pass the filters; new nodes are taken in order
// of weight (then edge id) until max_nodes; `truncated` when a cap cut the answer.
import { RELATIONSHIP_KINDS, type RelationshipKind } from './entity-types';
import { IdTable, grow, sliced } from './id-table';
import { uuidWords } from './uuid-words';

const EMPTY: Int32Array = new Int32Array(0);

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
