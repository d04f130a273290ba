// One QuantizedIndex per tenant, built from the vec0 table in slices (loadSome, from the
// background after start-up, so requests are never held behind it) or all at once (warm),
// and kept current by VectorStore as vectors commit. Until a tenant's index is complete,
// VectorStore answers from vec0 exactly. vec0 stays the source of truth: a
// change of embedding space (model or dimension) drops every index, and hits are checked
// against the nodes table by VectorStore.nearest (a deleted node's code lingers until pruned).
import { QuantizedIndex, type ScoredSeq } from './quantized-index.js';
import { SlotIds } from './slot-ids.js';

export interface StoredVector {
  seq: number;
  id: string; // node id: a seq reused by a newer node must not inherit the old vector
  embedding: Buffer | Uint8Array;
  /** For a passage (an index of passages): its node's seq; `seq` is then the passage's own key. */
  owner?: number;
}

export interface VectorSource {
  /** The live embedding space, or undefined before the model has created the vec0 table. */
  space(): Promise<{ model_id: string; dimension: number } | undefined>;
  /** The next vectors after cursor `after` (0 to start; a node seq or a vec0 chunk, the source decides); `last` is the cursor to go on from (null: none left). */
  page(tenantId: string, afterSeq: number, limit: number): Promise<{ vectors: StoredVector[]; last: number | null }>;
  some(tenantId: string, nodeIds: string[]): Promise<StoredVector[]>;
}

interface TenantIndex {
  index: QuantizedIndex;
  /** Each node vector's node id, by its slot in the index. */
  ids: SlotIds;
  /** The source's cursor: what has been read from vec0 so far. */
  after: number;
  complete: boolean;
  /** A background load owns it: queries go to vec0 until it is complete. */
  background: boolean;
  /** A background (re)build of the index's partition is scheduled. */
  partitioning: boolean;
  /** An index of passages: each key's node seq, each node's keys, and each node's id (once per node, not per passage). */
  owners: Map<number, number>;
  byOwner: Map<number, number[]>;
  ownerIds: Map<number, string>;
}

/**
 * V8's heap per entry of the maps beside the index (bench/lab/index-heap.ts, 200 tenants ×
 * 1,000 vectors: 171 B per passage of three a node): a node id with its map entry (passages'
 * owners; a node vector's id is packed in SlotIds, 32 B), a passage's owner, a node's list of
 * passage keys.
 */
export const ID_ENTRY_BYTES = 80;
export const OWNER_ENTRY_BYTES = 32;
export const OWNER_LIST_BYTES = 200;

const WARM_PAGE = 5000;
/** The longest the partition's training and filing runs per event-loop turn. */
export const PARTITION_SLICE_MS = 15;

export interface IndexStats {
  vectors: number;
  bytes_per_vector: number;
  partitioned: boolean;
  /** How long its partition's last build took, slices added up. */
  partition_build_ms: number;
}

export interface IndexHit extends ScoredSeq {
  id: string;
  /** A passage's node seq (an index of passages). */
  owner?: number;
}

/** The stored bytes as floats: a view when they are aligned (no copy per vector while an index loads), else a copy. */
const asFloats = (b: Buffer | Uint8Array) =>
  b.byteOffset % 4 === 0 ? new Float32Array(b.buffer, b.byteOffset, b.byteLength >> 2) : new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));

export class SemanticIndexes {
  private spaceKey = '';
  private readonly tenants = new Map<string, TenantIndex>();
  /** False: searches scan every code, not the partition (a comparison for `npm run bench`). */
  usePartition = true;

  constructor(private readonly source: VectorSource) {}

  /** The tenant's index, as far as it is loaded; null while there is no vector table. */
  private async tenant(tenantId: string): Promise<TenantIndex | null> {
    const space = await this.source.space();
    if (!space) return null;
    const key = `${space.model_id}:${space.dimension}`;
    if (key !== this.spaceKey) {
      this.tenants.clear();
      this.spaceKey = key;
    }
    let t = this.tenants.get(tenantId);
    if (!t) {
      t = { index: new QuantizedIndex(space.dimension), ids: new SlotIds(), after: 0, complete: false, background: false, partitioning: false, owners: new Map(), byOwner: new Map(), ownerIds: new Map() };
      this.tenants.set(tenantId, t);
    }
    return t;
  }

  /** The tenant's index once complete (loading the rest now if need be); null without a vector table. */
  private async loaded(tenantId: string): Promise<TenantIndex | null> {
    const t = await this.tenant(tenantId);
    if (!t || t.complete) return t;
    while (!t.complete) await this.step(t, tenantId, WARM_PAGE);
    t.index.buildPartition(); // part of loading it now, as the caller asked
    return t;
  }

  /** (Re)builds the tenant's partition in slices between event-loop turns, if one is due. */
  private schedulePartition(tenantId: string, t: TenantIndex): void {
    if (t.partitioning || !t.complete || !t.index.partitionDue()) return;
    t.partitioning = true;
    const slice = () => {
      if (this.tenants.get(tenantId) !== t || t.index.buildPartition(PARTITION_SLICE_MS)) t.partitioning = false;
      else setImmediate(slice).unref();
    };
    setImmediate(slice).unref();
  }

  private async step(t: TenantIndex, tenantId: string, limit: number): Promise<void> {
    const after = t.after;
    const { vectors, last } = await this.source.page(tenantId, after, limit);
    if (t.after !== after || t.complete) return; // another load read this page meanwhile
    for (const v of vectors) this.put(t, v);
    if (last === null) t.complete = true;
    else t.after = last;
  }

  private put(t: TenantIndex, v: StoredVector): void {
    const f = asFloats(v.embedding);
    if (f.length !== t.index.dimension) return;
    if (v.owner !== undefined) {
      // A passage of another node than the one held at this seq (a newer node took it): the
      // older node's passages leave first.
      const held = t.ownerIds.get(v.owner);
      if (held !== undefined && held !== v.id) for (const key of [...(t.byOwner.get(v.owner) ?? [])]) this.drop(t, key);
      if (held !== v.id) t.ownerIds.set(v.owner, v.id);
    }
    t.index.upsert(v.seq, f);
    if (v.owner === undefined) t.ids.set(t.index.slot(v.seq)!, v.id);
    if (v.owner !== undefined && t.owners.get(v.seq) !== v.owner) {
      if (t.owners.has(v.seq)) this.drop(t, v.seq); // a key another node's passage had
      t.index.upsert(v.seq, f);
      t.owners.set(v.seq, v.owner);
      const keys = t.byOwner.get(v.owner);
      if (keys) keys.push(v.seq);
      else t.byOwner.set(v.owner, [v.seq]);
    }
  }

  private hit(t: TenantIndex, h: ScoredSeq): IndexHit {
    const owner = t.owners.get(h.seq);
    return owner === undefined ? { seq: h.seq, score: h.score, id: t.ids.get(t.index.slot(h.seq)!)! } : { seq: h.seq, score: h.score, id: t.ownerIds.get(owner)!, owner };
  }

  /** Loads the tenant's vectors now (the first query would otherwise pay for it). */
  async warm(tenantId: string): Promise<number> {
    return (await this.loaded(tenantId))?.index.size ?? 0;
  }

  /**
   * Reads up to `limit` more of the tenant's vectors into its index, or once they are all
   * read, builds its partition for a while: one slice of a background load. Queries use
   * the index as soon as every vector is in (the flat scan until the partition is built).
   * True once both are done (or there is no vector table).
   */
  async loadSome(tenantId: string, limit: number): Promise<boolean> {
    const t = await this.tenant(tenantId);
    if (!t) return true;
    t.background = true;
    if (!t.complete) await this.step(t, tenantId, limit);
    return t.complete && t.index.buildPartition(PARTITION_SLICE_MS);
  }

  /**
   * True while a background load (loadSome) is under way for the tenant: queries then go to
   * vec0 instead of waiting for it. Without one, the first query loads the index itself.
   */
  async isLoading(tenantId: string): Promise<boolean> {
    const space = await this.source.space();
    const t = this.tenants.get(tenantId);
    return !!space && `${space.model_id}:${space.dimension}` === this.spaceKey && t !== undefined && !t.complete && t.background;
  }

  /** Announces a background load of these tenants (before its first slice reaches them). */
  async willLoad(tenantIds: string[]): Promise<void> {
    for (const id of tenantIds) {
      const t = await this.tenant(id);
      if (t) t.background = true;
    }
  }

  /** True when the tenant's index holds every stored vector. */
  async isComplete(tenantId: string): Promise<boolean> {
    const space = await this.source.space();
    return !!space && `${space.model_id}:${space.dimension}` === this.spaceKey && this.tenants.get(tenantId)?.complete === true;
  }

  async search(tenantId: string, query: Float32Array, k: number): Promise<IndexHit[]> {
    const t = await this.loaded(tenantId);
    if (!t) return [];
    t.index.usePartition = this.usePartition;
    return t.index.search(query, k).map((h) => this.hit(t, h));
  }

  /** The query's approximate cosine to these seqs (the ones in the index), with their node ids. */
  async scoreOf(tenantId: string, query: Float32Array, seqs: number[]): Promise<IndexHit[]> {
    const t = await this.loaded(tenantId);
    if (!t || seqs.length === 0) return [];
    return t.index.scoreOf(query, seqs).map((h) => this.hit(t, h));
  }

  /** These nodes have new vectors (a tenant still loading gets them now, and re-reads them harmlessly later). */
  async onEmbedded(tenantId: string, nodeIds: string[]): Promise<void> {
    const t = this.tenants.get(tenantId);
    if (!t || nodeIds.length === 0) return;
    for (const v of await this.source.some(tenantId, nodeIds)) this.put(t, v);
    this.schedulePartition(tenantId, t);
  }

  forget(tenantId: string, seqs: number[]): void {
    const t = this.tenants.get(tenantId);
    if (!t) return;
    for (const seq of seqs) this.drop(t, seq);
    this.schedulePartition(tenantId, t);
  }

  private drop(t: TenantIndex, key: number): void {
    t.index.remove(key); // its slot's id is written over when the slot is handed out again
    const owner = t.owners.get(key);
    if (owner === undefined) return;
    t.owners.delete(key);
    const keys = t.byOwner.get(owner)?.filter((k) => k !== key);
    if (keys?.length) t.byOwner.set(owner, keys);
    else {
      t.byOwner.delete(owner);
      t.ownerIds.delete(owner);
    }
  }

  /** An index of passages: every key held for the nodes at these seqs. */
  async keysOf(tenantId: string, owners: number[]): Promise<number[]> {
    const t = await this.loaded(tenantId);
    if (!t) return [];
    return owners.flatMap((o) => t.byOwner.get(o) ?? []);
  }

  /** An index of passages: the nodes at these seqs are gone (every passage of theirs leaves). */
  forgetOwners(tenantId: string, owners: number[]): void {
    const t = this.tenants.get(tenantId);
    if (!t) return;
    for (const o of owners) for (const key of [...(t.byOwner.get(o) ?? [])]) this.drop(t, key);
    this.schedulePartition(tenantId, t);
  }

  /** An index of passages: these nodes were embedded again, so their passages are replaced by what the source holds now. */
  async replaceOwners(tenantId: string, owners: number[], nodeIds: string[]): Promise<void> {
    const t = this.tenants.get(tenantId);
    if (!t) return;
    const fresh = nodeIds.length ? await this.source.some(tenantId, nodeIds) : [];
    for (const o of owners) for (const key of [...(t.byOwner.get(o) ?? [])]) this.drop(t, key);
    for (const v of fresh) this.put(t, v);
    this.schedulePartition(tenantId, t);
  }

  /** The tenant's index: vectors, bytes per vector, whether its partition is in use. */
  stats(tenantId: string): IndexStats {
    const ix = this.tenants.get(tenantId)?.index;
    return { vectors: ix?.size ?? 0, bytes_per_vector: Math.round(ix?.bytesPerVector() ?? 0), partitioned: ix?.partitioned ?? false, partition_build_ms: Math.round(ix?.partitionBuildMs ?? 0) };
  }

  /** Drops one tenant's index (it loads again from the source when next needed). */
  evict(tenantId: string): boolean {
    return this.tenants.delete(tenantId);
  }

  /**
   * The bytes each held tenant's index takes: its arrays, its partition, and what it keeps on
   * V8's heap beside them (node ids, passages' owners) — what the memory budget counts.
   */
  held(): Map<string, number> {
    return new Map([...this.tenants].map(([id, t]) => [id, t.index.heldBytes() + t.ids.heldBytes(ID_ENTRY_BYTES) + t.ownerIds.size * ID_ENTRY_BYTES + t.owners.size * OWNER_ENTRY_BYTES + t.byOwner.size * OWNER_LIST_BYTES]));
  }

  /** Drops every tenant's index (they load again from the source); returns the tenants that had one. */
  reset(): string[] {
    const ids = [...this.tenants.keys()];
    this.tenants.clear();
    return ids;
  }

  size(tenantId: string): number {
    return this.tenants.get(tenantId)?.index.size ?? 0;
  }
}
