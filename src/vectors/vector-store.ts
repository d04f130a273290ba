// The one owner of node vectors: the vec0 table (through VectorsRepo), the in-memory ANN
// index over it, the single path by which a node's vector is written (embedding jobs and
// the capture pipeline both use storeNodeVectors), k-NN, and the "embedded" event that
// fires once written vectors have committed. Search, suggestions, context, PARA and
// captures see only this interface.
import { EventEmitter } from 'node:events';
import type { UnitOfWork } from '../db/unit-of-work.js';
import { isFiltered, type NodeFilter, type NodesRepo } from '../repos/nodes.repo.js';
import type { EmbeddingSpace, KnnHit, VectorsApi } from '../repos/vectors.repo.js';
import { embeddingText, textHash } from '../search/embedding-text.js';
import { dot } from './math.js';
import { SemanticIndexes, type IndexStats } from './semantic-index.js';

/** vec0's largest k. */
const VEC0_MAX_K = 4096;

export type { KnnHit } from '../repos/vectors.repo.js';

export interface VectorWrite {
  nodeId: string;
  /** The embedding text the vector was computed from: it is stored only if the node still has it. */
  text: string;
  vector: Float32Array;
}

export interface ScoredNode {
  seq: number;
  id: string;
  score: number; // approximate cosine similarity
}

export interface EmbeddedEvent {
  tenantId: string;
  nodeIds: string[];
}

export interface VectorStoreDeps {
  /** VectorsRepo (SQLite's vec0) or PgVectorsRepo (PostgreSQL). */
  repo: VectorsApi;
  nodes: NodesRepo;
  tx: UnitOfWork;
}

export class VectorStore {
  private readonly events = new EventEmitter();
  private readonly index: SemanticIndexes;

  constructor(private readonly d: VectorStoreDeps) {
    this.index = new SemanticIndexes({ space: async () => await d.repo.space(), page: async (t, after, limit) => await d.repo.page(t, after, limit), some: async (t, ids) => await d.repo.some(t, ids) });
  }

  async space(): Promise<EmbeddingSpace | undefined> {
    return await this.d.repo.space();
  }

  /**
   * Makes the vector table belong to this model. Returns true when it had to be (re)created:
   * every vector is then gone and every node needs embedding again.
   */
  async ensureSpace(modelId: string, dimension: number, at: string): Promise<boolean> {
    // Never drop a live vector table for a model that has not told us what it is.
    if (!modelId || !(dimension > 0)) throw new Error(`refusing an embedding space without a model (id "${modelId}", dimension ${dimension})`);
    if (await this.d.repo.matches(modelId, dimension)) return false;
    await this.d.tx.withTx(async () => {
      await this.d.repo.recreate(modelId, dimension, at);
      await this.d.nodes.clearAllEmbedded();
    });
    return true;
  }

  /**
   * The single write path for node vectors. Each vector is stored only if its node still
   * exists and still has exactly the text it was computed from, in the live embedding
   * space of `modelId`; the node is then marked embedded. Returns the ids written.
   * Joins the caller's transaction; the index and "embedded" listeners hear of the
   * writes once it commits.
   */
  async storeNodeVectors(tenantId: string, writes: VectorWrite[], modelId: string): Promise<string[]> {
    if (writes.length === 0) return [];
    const written = await this.d.tx.withTx(async () => {
      const space = await this.d.repo.space();
      if (!space || space.model_id !== modelId || !this.d.repo.ready) return [];
      const done: string[] = [];
      for (const w of writes) {
        if (w.vector.length !== space.dimension) continue;
        const row = await this.d.nodes.get(tenantId, w.nodeId);
        if (!row || embeddingText(row) !== w.text) continue; // changed or gone meanwhile: its own job follows
        await this.d.repo.upsert(tenantId, row.seq, w.vector);
        await this.d.nodes.markEmbedded(tenantId, row.id, textHash(w.text));
        done.push(row.id);
      }
      return done;
    });
    if (written.length) {
      this.d.tx.afterCommit(async () => {
        await this.index.onEmbedded(tenantId, written);
        this.events.emit('embedded', { tenantId, nodeIds: written } satisfies EmbeddedEvent);
      });
    }
    return written;
  }

  /** Drops a node's vector (inside the caller's transaction); the index forgets it after commit. */
  async removeNode(tenantId: string, seq: number): Promise<void> {
    await this.d.repo.delete(seq);
    this.d.tx.afterCommit(() => this.index.forget(tenantId, [seq]));
  }

  /**
   * Vector writes and deletes another process committed (PostgreSQL notifications, in
   * commit order): the indexes held follow them. Tenants not held load fresh when needed.
   */
  async applyChanges(changes: Array<{ tenantId: string; op: 'u' | 'd'; seq: number; nodeId: string }>): Promise<void> {
    for (let i = 0; i < changes.length; ) {
      const { tenantId, op } = changes[i];
      let j = i;
      while (j < changes.length && changes[j].tenantId === tenantId && changes[j].op === op) j++;
      const run = changes.slice(i, j);
      if (op === 'u') await this.index.onEmbedded(tenantId, run.map((c) => c.nodeId).filter(Boolean));
      else this.index.forget(tenantId, run.map((c) => c.seq));
      i = j;
    }
  }

  /** Drops the indexes held so they reload from the database (after missed notifications); returns their tenants. */
  resetIndexes(): string[] {
    return this.index.reset();
  }

  /** Listens for vectors that have been stored and committed. */
  onEmbedded(listener: (e: EmbeddedEvent) => void): void {
    this.events.on('embedded', listener);
  }

  async get(tenantId: string, nodeId: string): Promise<Float32Array | null> {
    return await this.d.repo.get(tenantId, nodeId);
  }

  /** Loads the tenant's vectors into the in-memory index now; returns how many. */
  async warm(tenantId: string): Promise<number> {
    return await this.index.warm(tenantId);
  }

  /** False: k-NN scans every code instead of the partition's nearest lists (a comparison for `npm run bench`). */
  get usePartition(): boolean {
    return this.index.usePartition;
  }

  set usePartition(on: boolean) {
    this.index.usePartition = on;
  }

  /** The tenant's in-memory index as loaded so far: vectors, bytes per vector, partitioned or not. */
  indexStats(tenantId: string): IndexStats {
    return this.index.stats(tenantId);
  }

  /** How many vectors the tenant has, without loading its index. */
  async count(tenantId: string): Promise<number> {
    return await this.index.isLoading(tenantId) ? await this.d.repo.count(tenantId) : await this.index.warm(tenantId);
  }

  /**
   * One slice of loading the tenant's index in the background (`limit` vectors); true once
   * it is complete. Until then, queries are answered exactly from vec0.
   */
  async loadSome(tenantId: string, limit: number): Promise<boolean> {
    return await this.index.loadSome(tenantId, limit);
  }

  /** Marks these tenants' indexes as loading in the background (queries go to vec0 meanwhile). */
  async willLoad(tenantIds: string[]): Promise<void> {
    await this.index.willLoad(tenantIds);
  }

  /**
   * The `k` nodes nearest to a vector that pass the filters, nearest first, from the
   * in-memory index: over-fetches until the filters leave k (or every vector was seen).
   * Hits are checked against the nodes table: a deleted node's vector, or one whose seq a
   * newer node took, is dropped and pruned from the index.
   */
  async nearest(tenantId: string, vec: Float32Array, k: number, filter: NodeFilter = {}): Promise<ScoredNode[]> {
    if (k <= 0) return [];
    if (await this.index.isLoading(tenantId)) return this.nearestExact(tenantId, vec, k, filter);
    const filtered = isFiltered(filter);
    const available = await this.index.warm(tenantId);
    let want = Math.min(k, available);
    for (;;) {
      const hits = await this.index.search(tenantId, vec, want);
      const live = await this.d.nodes.passing(tenantId, hits.map((h) => h.seq), filter);
      const stale = hits.filter((h) => (filtered ? live.has(h.seq) && live.get(h.seq) !== h.id : live.get(h.seq) !== h.id));
      if (stale.length) this.index.forget(tenantId, stale.map((h) => h.seq));
      const out = hits.filter((h) => live.get(h.seq) === h.id).map((h) => ({ seq: h.seq, id: h.id, score: h.score }));
      if (out.length >= k || want >= available) return out.slice(0, k);
      want = Math.min(want * 4, available);
    }
  }

  /**
   * nearest() from vec0 by brute force, while the in-memory index is loading in the
   * background; scored like similarities() in that state (the stored floats' dot product),
   * so a node's score does not depend on which of the two found it.
   */
  private async nearestExact(tenantId: string, vec: Float32Array, k: number, filter: NodeFilter): Promise<ScoredNode[]> {
    let want = k;
    for (;;) {
      const hits = await this.d.repo.knnExact(tenantId, vec, want);
      const live = await this.d.nodes.passing(tenantId, hits.map((h) => h.seq), filter);
      const kept = hits.filter((h) => live.get(h.seq) === h.id);
      if (kept.length >= k || hits.length < want || want >= VEC0_MAX_K) {
        const exact = new Map((await this.exactScores(tenantId, vec, kept.slice(0, k).map((h) => h.seq))).map((r) => [r.seq, r.score]));
        return kept.slice(0, k).map((h) => ({ seq: h.seq, id: h.id, score: exact.get(h.seq) ?? 1 - h.distance }));
      }
      want = Math.min(want * 4, VEC0_MAX_K);
    }
  }

  private async exactScores(tenantId: string, vec: Float32Array, seqs: number[]): Promise<Array<{ seq: number; score: number }>> {
    return (await this.d.repo.bySeqs(tenantId, seqs)).map((r) => ({ seq: r.seq, score: dot(vec, new Float32Array(r.embedding.buffer, r.embedding.byteOffset, r.embedding.byteLength / 4)) }));
  }

  /**
   * The similarity of a vector to these nodes (approximate cosine, as nearest() scores
   * them; exact while the index is loading), for those that have a vector and are still
   * live; order not guaranteed.
   */
  async similarities(tenantId: string, vec: Float32Array, seqs: number[]): Promise<ScoredNode[]> {
    if (seqs.length === 0) return [];
    if (await this.index.isLoading(tenantId)) {
      const rows = await this.exactScores(tenantId, vec, seqs);
      const live = await this.d.nodes.passing(tenantId, rows.map((r) => r.seq), {});
      return rows.filter((r) => live.has(r.seq)).map((r) => ({ seq: r.seq, id: live.get(r.seq)!, score: r.score }));
    }
    const hits = await this.index.scoreOf(tenantId, vec, seqs);
    const live = await this.d.nodes.passing(tenantId, hits.map((h) => h.seq), {});
    return hits.filter((h) => live.get(h.seq) === h.id).map((h) => ({ seq: h.seq, id: h.id, score: h.score }));
  }

  /** The k nodes nearest to a vector, nearest first; distance = 1 - approximate cosine. */
  async knn(tenantId: string, vec: Float32Array, k: number): Promise<KnnHit[]> {
    return (await this.nearest(tenantId, vec, k)).map((h) => ({ id: h.id, seq: h.seq, distance: 1 - h.score }));
  }

  /** Exact brute-force k-NN in vec0: the baseline `npm run bench` measures the index against. */
  async knnExact(tenantId: string, vec: Float32Array, k: number): Promise<KnnHit[]> {
    return await this.d.repo.knnExact(tenantId, vec, k);
  }
}
