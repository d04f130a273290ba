// The one owner of node vectors: the vec0 table (through VectorsRepo) and the passage
// vectors of long notes (PassagesRepo), the in-memory ANN indexes over them, the single path
// by which a node's vectors are written (embedding jobs and the capture pipeline both use
// storeNodeVectors), k-NN, and the "embedded" event that fires once written vectors have
// committed. A node's similarity to a query is the best of its own vector's and its
// passages' (the passage that scored it is named). Search, suggestions, context, PARA and
// captures see only this interface.
import { EventEmitter } from 'node:events';
import type { UnitOfWork } from '../db/unit-of-work.js';
import { isFiltered, type NodeFilter, type NodesRepo } from '../repos/nodes.repo.js';
import type { PassageSpan, PassagesRepo } from '../repos/passages.repo.js';
import type { EmbeddingSpace, KnnHit, VectorsApi } from '../repos/vectors.repo.js';
import { embeddingKey, embeddingText, textHash } from '../search/embedding-text.js';
import { byScore, ExactScan } from './exact-scan.js';
import { IndexesByUse, type BudgetOptions } from './indexes-by-use.js';
import { bestOfVectors } from './max-passage.js';
import { SemanticIndexes, type IndexHit, type IndexStats } from './semantic-index.js';
import type { EmbeddedEvent, ScoredNode, VectorWrite } from './vector-shapes.js';

export type { KnnHit } from '../repos/vectors.repo.js';

export type { EmbeddedEvent, ScoredNode, VectorWrite } from './vector-shapes.js';

export interface VectorStoreDeps {
  /** VectorsRepo (SQLite's vec0) or PgVectorsRepo (PostgreSQL). */
  repo: VectorsApi;
  nodes: NodesRepo;
  tx: UnitOfWork;
  /** Passage vectors of long notes (absent: nodes are scored by their own vectors only). */
  passages?: PassagesRepo;
  /**
   * Indexes by use under one memory budget (indexes-by-use.ts). Absent: a tenant's first
   * query loads its index itself and nothing is evicted.
   */
  budget?: BudgetOptions;
}

/** Passages taken from the passage index per k-NN (bench: 400 keeps hybrid within its budget at 100k notes with 150k passages). */
const PASSAGE_CANDIDATES = 400;


export class VectorStore {
  private readonly events = new EventEmitter();
  private readonly index: SemanticIndexes;
  private readonly passageIndex: SemanticIndexes | null;
  /** Answers while an index loads. */
  private readonly exact: ExactScan;
  /** False: nodes are scored by their own vectors only (a comparison for `npm run eval` and `npm run bench`). */
  usePassages = true;
  private readonly byUse: IndexesByUse | null;

  constructor(private readonly d: VectorStoreDeps) {
    this.exact = new ExactScan(d);
    this.index = new SemanticIndexes({ space: async () => await d.repo.space(), page: async (t, after, limit) => await d.repo.page(t, after, limit), some: async (t, ids) => await d.repo.some(t, ids) });
    const passages = d.passages;
    this.passageIndex = passages
      ? new SemanticIndexes({ space: async () => await d.repo.space(), page: async (t, after, limit) => await passages.page(t, after, limit), some: async (t, ids) => await passages.some(t, ids) })
      : null;
    this.byUse = d.budget
      ? new IndexesByUse(d.budget, {
          isHeld: async (t) => await this.index.isComplete(t) && (!this.passageIndex || await this.passageIndex.isComplete(t)),
          stored: async (t) => await d.repo.count(t),
          loadNow: async (t) => void (await this.warm(t)),
          willLoad: async (t) => await this.willLoad([t]),
          loadSlice: async (t, n) => await this.loadSome(t, n),
          drop: (t) => {
            this.index.evict(t);
            this.passageIndex?.evict(t);
          },
          bytes: () => this.heldBytes(),
        })
      : null;
  }

  /** The bytes every tenant's indexes take, by tenant. */
  heldBytes(): Map<string, number> {
    const held = this.index.held();
    for (const [t, b] of this.passageIndex?.held() ?? []) held.set(t, (held.get(t) ?? 0) + b);
    return held;
  }

  /** Drops a tenant's indexes from memory (they load again on its next request). */
  evict(tenantId: string): void {
    if (this.byUse) this.byUse.evict(tenantId);
    else {
      this.index.evict(tenantId);
      this.passageIndex?.evict(tenantId);
    }
  }

  /** Evicts the least recently used tenants' indexes until those held fit the budget (never `keep`'s). */
  enforceBudget(keep: string): void {
    this.byUse?.enforce(keep);
  }

  /** The memory budget of the indexes in bytes (null: none, every tenant's is kept). */
  get budgetBytes(): number | null {
    return this.byUse?.budgetBytes ?? null;
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
      await this.d.passages?.clearAll();
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
    const { written, withPassages, short } = await this.d.tx.withTx(async () => {
      const space = await this.d.repo.space();
      const done = { written: [] as string[], withPassages: [] as Array<{ seq: number; id: string }>, short: [] as number[] };
      if (!space || space.model_id !== modelId || !this.d.repo.ready) return done;
      for (const w of writes) {
        if (w.vector.length !== space.dimension) continue;
        const row = await this.d.nodes.get(tenantId, w.nodeId);
        if (!row || embeddingText(row) !== w.text) continue; // changed or gone meanwhile: its own job follows
        await this.d.repo.upsert(tenantId, row.seq, w.vector);
        const key = embeddingKey(row);
        const passages = w.passages && w.passages.body === row.body_markdown && this.d.passages ? w.passages.vectors.filter((p) => p.vector.length === space.dimension) : null;
        if (passages) {
          await this.d.passages!.replace(tenantId, row.seq, row.id, passages);
          done.withPassages.push({ seq: row.seq, id: row.id });
        } else if (key === textHash(w.text) && this.d.passages) {
          await this.d.passages.deleteNode(tenantId, row.seq); // a note cut short keeps no passages
          done.short.push(row.seq);
        }
        // Whole only when nothing of the text is left to embed; else its job embeds the passages.
        await this.d.nodes.markEmbedded(tenantId, row.id, passages || key === textHash(w.text) ? key : textHash(w.text));
        done.written.push(row.id);
      }
      return done;
    });
    if (written.length) {
      this.d.tx.afterCommit(async () => {
        await this.index.onEmbedded(tenantId, written);
        if (short.length) this.passageIndex?.forgetOwners(tenantId, short);
        if (withPassages.length) await this.passageIndex?.replaceOwners(tenantId, withPassages.map((n) => n.seq), withPassages.map((n) => n.id));
        this.events.emit('embedded', { tenantId, nodeIds: written } satisfies EmbeddedEvent);
      });
    }
    return written;
  }

  /** Drops a node's vector (inside the caller's transaction); the index forgets it after commit. */
  async removeNode(tenantId: string, seq: number): Promise<void> {
    await this.d.repo.delete(seq);
    await this.d.passages?.deleteNode(tenantId, seq);
    this.d.tx.afterCommit(() => {
      this.index.forget(tenantId, [seq]);
      this.passageIndex?.forgetOwners(tenantId, [seq]);
    });
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
      if (op === 'u') {
        await this.index.onEmbedded(tenantId, run.map((c) => c.nodeId).filter(Boolean));
        await this.passageIndex?.replaceOwners(tenantId, run.map((c) => c.seq), run.map((c) => c.nodeId).filter(Boolean));
      } else {
        this.index.forget(tenantId, run.map((c) => c.seq));
        this.passageIndex?.forgetOwners(tenantId, run.map((c) => c.seq));
      }
      i = j;
    }
  }

  /** Drops the indexes held so they reload from the database (after missed notifications); returns their tenants. */
  resetIndexes(): string[] {
    this.passageIndex?.reset();
    return this.index.reset();
  }

  /** Listens for vectors that have been stored and committed. */
  onEmbedded(listener: (e: EmbeddedEvent) => void): void {
    this.events.on('embedded', listener);
  }

  async get(tenantId: string, nodeId: string): Promise<Float32Array | null> {
    return await this.d.repo.get(tenantId, nodeId);
  }

  /** Loads the tenant's vectors (and passages) into the in-memory indexes now; returns how many node vectors. */
  async warm(tenantId: string): Promise<number> {
    await this.passageIndex?.warm(tenantId);
    return await this.index.warm(tenantId);
  }

  /** False: k-NN scans every code instead of the partition's nearest lists (a comparison for `npm run bench`). */
  get usePartition(): boolean {
    return this.index.usePartition;
  }

  set usePartition(on: boolean) {
    this.index.usePartition = on;
    if (this.passageIndex) this.passageIndex.usePartition = on;
  }

  /** The tenant's in-memory index as loaded so far: vectors, bytes per vector, partitioned or not; passages held. */
  indexStats(tenantId: string): IndexStats & { passages: number } {
    const passages = this.passageIndex?.stats(tenantId);
    const nodes = this.index.stats(tenantId);
    return { ...nodes, passages: passages?.vectors ?? 0 };
  }

  /** Bytes the tenant's in-memory indexes hold (nodes and passages). */
  indexBytes(tenantId: string): number {
    const n = this.index.stats(tenantId);
    const p = this.passageIndex?.stats(tenantId);
    return n.vectors * n.bytes_per_vector + (p ? p.vectors * p.bytes_per_vector : 0);
  }

  /** How many vectors the tenant has, without loading its index. */
  async count(tenantId: string): Promise<number> {
    await this.byUse?.use(tenantId); // under a budget: loads the tenant's indexes if need be
    return await this.index.isLoading(tenantId) ? await this.d.repo.count(tenantId) : await this.index.warm(tenantId);
  }

  /**
   * One slice of loading the tenant's indexes in the background (`limit` vectors): node
   * vectors, then passages; true once both are complete. Until then, queries are answered
   * exactly from storage.
   */
  async loadSome(tenantId: string, limit: number): Promise<boolean> {
    if (!await this.index.loadSome(tenantId, limit)) return false;
    return this.passageIndex ? await this.passageIndex.loadSome(tenantId, limit) : true;
  }

  /** Marks these tenants' indexes as loading in the background (queries go to storage meanwhile). */
  async willLoad(tenantIds: string[]): Promise<void> {
    await this.index.willLoad(tenantIds);
    await this.passageIndex?.willLoad(tenantIds);
  }

  /** True while the tenant's indexes load in the background (its queries are answered exactly from storage). */
  async isLoading(tenantId: string): Promise<boolean> {
    return await this.index.isLoading(tenantId) || (await this.passageIndex?.isLoading(tenantId)) === true;
  }

  /**
   * The `k` nodes nearest to a vector that pass the filters, nearest first, from the
   * in-memory indexes: a node's score is the best of its own vector's and its passages'.
   * Candidates come from both indexes (passages grouped by note), over-fetching until the
   * filters leave k (or every vector was seen); each candidate is then scored whole, so a
   * node's score never depends on which list found it. Hits are checked against the nodes
   * table: a deleted node's vectors, or ones whose seq a newer node took, are dropped and
   * pruned from the indexes.
   */
  async nearest(tenantId: string, vec: Float32Array, k: number, filter: NodeFilter = {}): Promise<ScoredNode[]> {
    if (k <= 0) return [];
    await this.byUse?.use(tenantId); // under a budget: loads the tenant's indexes if need be
    if (await this.isLoading(tenantId)) return await this.exact.nearest(tenantId, vec, k, filter, this.usePassages);
    const filtered = isFiltered(filter);
    const available = await this.index.warm(tenantId);
    if (available === 0) return [];
    const passagesHeld = this.usePassages ? ((await this.passageIndex?.warm(tenantId)) ?? 0) : 0;
    let want = Math.min(k, available);
    for (;;) {
      const hits = await this.index.search(tenantId, vec, want);
      if (passagesHeld === 0) {
        // No passages: each hit is its node's score already.
        const live = await this.d.nodes.passing(tenantId, hits.map((h) => h.seq), filter);
        const stale = hits.filter((h) => (filtered ? live.has(h.seq) && live.get(h.seq) !== h.id : live.get(h.seq) !== h.id));
        if (stale.length) this.index.forget(tenantId, stale.map((h) => h.seq));
        const out = hits.filter((h) => live.get(h.seq) === h.id).map((h) => ({ seq: h.seq, id: h.id, score: h.score }));
        if (out.length >= k || want >= available) return out.slice(0, k);
        want = Math.min(want * 4, available);
        continue;
      }
      const passageHits = await this.passagesNear(tenantId, vec, want, passagesHeld);
      const seqs = [...new Set([...hits.map((h) => h.seq), ...passageHits.map((h) => h.owner!)])];
      const live = await this.d.nodes.passing(tenantId, seqs, filter);
      const stale = (seq: number, id: string) => (filtered ? live.has(seq) && live.get(seq) !== id : live.get(seq) !== id);
      const staleNodes = hits.filter((h) => stale(h.seq, h.id));
      if (staleNodes.length) this.index.forget(tenantId, staleNodes.map((h) => h.seq));
      const stalePassages = passageHits.filter((h) => stale(h.owner!, h.id));
      if (stalePassages.length) this.passageIndex?.forget(tenantId, stalePassages.map((h) => h.seq));
      const ids = new Map([...hits, ...passageHits.map((h) => ({ seq: h.owner!, id: h.id }))].filter((h) => live.get(h.seq) === h.id).map((h) => [h.seq, h.id]));
      const out = (await this.scoreNodes(tenantId, vec, [...ids.keys()], hits, passageHits)).filter((h) => ids.get(h.seq) === h.id).sort(byScore);
      // Every node vector seen: every node with a vector was a candidate, scored whole.
      if (out.length >= k || want >= available) return out.slice(0, k);
      want = Math.min(want * 4, available);
    }
  }

  /**
   * The best similarity a vector reaches among the tenant's vectors (its notes' own and their
   * passages', as nearest() scores them), from the in-memory indexes alone: no storage read,
   * so a statistic over many vectors (the semantic gate's sixty probes,
   * services/nodes/semantic-gates.ts) costs no round trips. On PostgreSQL under load, checking
   * each probe's hit against the nodes table held a tenant's first search by meaning ~1 s
   * (`npm run bench:tenants`). A note deleted a moment ago may still count. Exact from
   * storage while the indexes load; null when the tenant has no vector.
   */
  async bestSimilarity(tenantId: string, vec: Float32Array): Promise<number | null> {
    await this.byUse?.use(tenantId); // under a budget: loads the tenant's indexes if need be
    if (await this.isLoading(tenantId)) return (await this.exact.nearest(tenantId, vec, 1, {}, this.usePassages))[0]?.score ?? null;
    if ((await this.index.warm(tenantId)) === 0) return null;
    const [own] = await this.index.search(tenantId, vec, 1);
    const held = this.usePassages ? ((await this.passageIndex?.warm(tenantId)) ?? 0) : 0;
    const [passage] = held ? await this.passagesNear(tenantId, vec, 1, held) : [];
    const best = Math.max(own?.score ?? -Infinity, passage?.score ?? -Infinity);
    return Number.isFinite(best) ? best : null;
  }

  /**
   * The passages nearest to a vector: twice as many as the nodes wanted, at most
   * PASSAGE_CANDIDATES (a long note's passages crowd together, so deeper lists mostly repeat
   * notes already found; every candidate is then scored with all its passages anyway).
   */
  private async passagesNear(tenantId: string, vec: Float32Array, nodes: number, held: number): Promise<IndexHit[]> {
    if (!this.passageIndex || held === 0) return [];
    return await this.passageIndex.search(tenantId, vec, Math.min(held, Math.max(2 * nodes, 20), PASSAGE_CANDIDATES));
  }

  /** Each node's similarity from all its vectors (max-passage.ts). */
  private async scoreNodes(tenantId: string, vec: Float32Array, seqs: number[], known: IndexHit[] = [], knownPassages: IndexHit[] = []): Promise<ScoredNode[]> {
    // Scores a k-NN already computed are reused (search() and scoreOf() compute the same
    // approximate cosine): only the rest are computed.
    const knownSeqs = new Set(known.map((h) => h.seq));
    const own = [...known, ...(await this.index.scoreOf(tenantId, vec, known.length ? seqs.filter((s) => !knownSeqs.has(s)) : seqs))];
    if (!this.passageIndex || !this.usePassages) return bestOfVectors(own, []);
    const seen = new Set(knownPassages.map((p) => p.seq));
    const keys = (await this.passageIndex.keysOf(tenantId, seqs)).filter((k) => !seen.has(k));
    return bestOfVectors(own, [...knownPassages, ...(await this.passageIndex.scoreOf(tenantId, vec, keys))]);
  }

  /**
   * The similarity of a vector to these nodes (approximate cosine, as nearest() scores
   * them; exact while the index is loading), for those that have a vector and are still
   * live; order not guaranteed.
   */
  async similarities(tenantId: string, vec: Float32Array, seqs: number[]): Promise<ScoredNode[]> {
    if (seqs.length === 0) return [];
    await this.byUse?.use(tenantId); // under a budget: loads the tenant's indexes if need be
    if (await this.isLoading(tenantId)) {
      const rows = await this.exact.scores(tenantId, vec, seqs, this.usePassages);
      const live = await this.d.nodes.passing(tenantId, rows.map((r) => r.seq), {});
      return rows.filter((r) => live.has(r.seq)).map((r) => ({ ...r, id: live.get(r.seq)! }));
    }
    const hits = await this.scoreNodes(tenantId, vec, seqs);
    const live = await this.d.nodes.passing(tenantId, hits.map((h) => h.seq), {});
    return hits.filter((h) => live.get(h.seq) === h.id);
  }

  /** Where these passages lie in their notes (for the snippet that shows the passage that matched). */
  async passageSpans(tenantId: string, keys: number[]): Promise<Map<number, PassageSpan>> {
    if (!this.d.passages || keys.length === 0) return new Map();
    return new Map((await this.d.passages.spans(tenantId, keys)).map((s) => [Number(s.key), s]));
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
