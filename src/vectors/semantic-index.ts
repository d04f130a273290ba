// One QuantizedIndex per tenant, built from the vec0 table on the tenant's first semantic
// query and kept current by VectorStore as vectors commit. vec0 stays the source of truth: a
// change of embedding space (model or dimension) drops every index, and hits are checked
// against the nodes table by VectorStore.nearest (a deleted node's code lingers until pruned).
import { QuantizedIndex, type ScoredSeq } from './quantized-index.js';

export interface StoredVector {
  seq: number;
  id: string; // node id: a seq reused by a newer node must not inherit the old vector
  embedding: Buffer | Uint8Array;
}

export interface VectorSource {
  /** The live embedding space, or undefined before the model has created the vec0 table. */
  space(): { model_id: string; dimension: number } | undefined;
  all(tenantId: string): Iterable<StoredVector>;
  some(tenantId: string, nodeIds: string[]): StoredVector[];
}

export interface IndexHit extends ScoredSeq {
  id: string;
}

const asFloats = (b: Buffer | Uint8Array) => new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));

export class SemanticIndexes {
  private spaceKey = '';
  private readonly tenants = new Map<string, { index: QuantizedIndex; ids: Map<number, string> }>();

  constructor(private readonly source: VectorSource) {}

  /** Builds (or returns) the tenant's index; null while there is no vector table. */
  private tenant(tenantId: string) {
    const space = this.source.space();
    if (!space) return null;
    const key = `${space.model_id}:${space.dimension}`;
    if (key !== this.spaceKey) {
      this.tenants.clear();
      this.spaceKey = key;
    }
    let t = this.tenants.get(tenantId);
    if (!t) {
      t = { index: new QuantizedIndex(space.dimension), ids: new Map() };
      for (const v of this.source.all(tenantId)) this.put(t, v);
      this.tenants.set(tenantId, t);
    }
    return t;
  }

  private put(t: { index: QuantizedIndex; ids: Map<number, string> }, v: StoredVector): void {
    const f = asFloats(v.embedding);
    if (f.length !== t.index.dimension) return;
    t.index.upsert(v.seq, f);
    t.ids.set(v.seq, v.id);
  }

  /** Loads the tenant's vectors now (the first query would otherwise pay for it). */
  warm(tenantId: string): number {
    return this.tenant(tenantId)?.index.size ?? 0;
  }

  search(tenantId: string, query: Float32Array, k: number): IndexHit[] {
    const t = this.tenant(tenantId);
    if (!t) return [];
    return t.index.search(query, k).map((h) => ({ ...h, id: t.ids.get(h.seq)! }));
  }

  /** The query's approximate cosine to these seqs (the ones in the index), with their node ids. */
  scoreOf(tenantId: string, query: Float32Array, seqs: number[]): IndexHit[] {
    const t = this.tenant(tenantId);
    if (!t || seqs.length === 0) return [];
    return t.index.scoreOf(query, seqs).map((h) => ({ ...h, id: t.ids.get(h.seq)! }));
  }

  /** These nodes have new vectors. Tenants not loaded yet will read them on first use. */
  onEmbedded(tenantId: string, nodeIds: string[]): void {
    const t = this.tenants.get(tenantId);
    if (!t || nodeIds.length === 0) return;
    for (const v of this.source.some(tenantId, nodeIds)) this.put(t, v);
  }

  forget(tenantId: string, seqs: number[]): void {
    const t = this.tenants.get(tenantId);
    if (!t) return;
    for (const seq of seqs) {
      t.index.remove(seq);
      t.ids.delete(seq);
    }
  }

  size(tenantId: string): number {
    return this.tenants.get(tenantId)?.index.size ?? 0;
  }
}
