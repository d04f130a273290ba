// Node vectors in a sqlite-vec vec0 table partitioned by tenant: the exact float vectors,
// the source of truth for the in-memory index (src/vectors/). The dimension follows the
// embedding model, so the table is created here rather than in schema.sql, and
// embedding_spaces records which model filled it. Every statement is prepared once, when
// the table is known to exist.
import type { Statement } from '../db/store/contract.js';
import type { SqliteStore } from '../db/store/sqlite-store.js';
import { Vec0Chunks } from './vec0-chunks.js';

type Stmt = Statement;

export interface EmbeddingSpace {
  model_id: string;
  dimension: number;
}

export interface StoredVector {
  seq: number;
  id: string; // node id: a seq reused by a newer node must not inherit the old vector
  embedding: Buffer;
}

export interface KnnHit {
  id: string;
  seq: number;
  distance: number; // cosine distance: 0 = same direction, 2 = opposite
}

const VEC0_MAX_K = 4096;

/** VectorsRepo's public interface: what the vector store needs of either engine (PostgreSQL's twin: repos/pg/vectors.pg.ts). */
export type VectorsApi = { [K in keyof VectorsRepo]: VectorsRepo[K] };

interface Stmts {
  del: Stmt;
  ins: Stmt;
  knn: Stmt;
  get: Stmt;
  some: Stmt;
  seqPage: Stmt;
  bySeq: Stmt;
  idsOf: Stmt;
  /** vec0's chunks read whole, when its layout is known (else one rowid at a time). */
  chunks: Vec0Chunks | null;
}

export class VectorsRepo implements VectorsApi {
  private dim = 0;
  private stmts: Stmts | undefined;
  private readonly spaceStmt: Stmt;
  private readonly tableStmt: Stmt;
  private readonly setSpaceStmt: Stmt;
  private readonly countStmt: Stmt;

  constructor(
    private readonly db: SqliteStore,
    /** `chunks: false` reads vectors one rowid at a time even where vec0's chunks could be read (for comparison). */
    private readonly opts: { chunks?: boolean } = {},
  ) {
    this.spaceStmt = db.prepare('SELECT model_id, dimension FROM embedding_spaces WHERE id = 1');
    this.tableStmt = db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'node_vectors'");
    this.setSpaceStmt = db.prepare(
      `INSERT INTO embedding_spaces (id, model_id, dimension, created_at) VALUES (1, ?, ?, ?)
       ON CONFLICT(id) DO UPDATE SET model_id = excluded.model_id, dimension = excluded.dimension, created_at = excluded.created_at`,
    );
    this.countStmt = db.prepare('SELECT count(*) FROM nodes WHERE tenant_id = ? AND embedded_hash IS NOT NULL').pluck();
    // Read once at construction, before anything is served.
    const space = db.handle.prepare('SELECT model_id, dimension FROM embedding_spaces WHERE id = 1').get() as EmbeddingSpace | undefined;
    if (space && db.handle.prepare("SELECT 1 FROM sqlite_master WHERE name = 'node_vectors'").get()) this.prepare(space.dimension);
  }

  /**
   * The embedding space, read once: only recreate() changes it, and one process holds a
   * SQLite file. The in-memory indexes ask for it several times a search, and each statement
   * waits its turn behind any open write transaction.
   */
  async space(): Promise<EmbeddingSpace | undefined> {
    if (this.spaceRead) return this.spaceKnown;
    this.spaceKnown = await this.spaceStmt.get() as EmbeddingSpace | undefined;
    this.spaceRead = !this.db.inTransaction; // a transaction may still roll back what it read
    return this.spaceKnown;
  }
  private spaceRead = false;
  private spaceKnown: EmbeddingSpace | undefined;

  /** True when the vector table exists for exactly this model and dimension. */
  async matches(modelId: string, dimension: number): Promise<boolean> {
    const cur = await this.space();
    return !!cur && cur.model_id === modelId && cur.dimension === dimension && !!await this.tableStmt.get();
  }

  /** Drops every vector and creates the table for a new model (the caller holds the transaction). */
  async recreate(modelId: string, dimension: number, at: string): Promise<void> {
    await this.db.exec('DROP TABLE IF EXISTS node_vectors');
    await this.db.exec(`CREATE VIRTUAL TABLE node_vectors USING vec0(tenant_id text partition key, embedding float[${dimension}] distance_metric=cosine)`);
    await this.setSpaceStmt.run(modelId, dimension, at);
    this.spaceRead = false; // read again once committed (or rolled back)
    this.prepare(dimension);
  }

  get dimension(): number {
    return this.dim;
  }

  get ready(): boolean {
    return this.stmts !== undefined;
  }

  async upsert(tenantId: string, seq: number, vector: Float32Array): Promise<void> {
    const s = this.require();
    await s.del.run(BigInt(seq));
    await s.ins.run(BigInt(seq), tenantId, vector);
  }

  async delete(seq: number): Promise<void> {
    await this.stmts?.del.run(BigInt(seq));
  }

  /** Exact k nearest nodes of the tenant, nearest first (brute force over the partition): the baseline. */
  async knnExact(tenantId: string, vector: Float32Array, k: number): Promise<KnnHit[]> {
    if (!this.stmts || vector.length !== this.dim || k <= 0) return [];
    return await this.stmts.knn.all(vector, BigInt(Math.min(k, VEC0_MAX_K)), tenantId) as KnnHit[];
  }

  async get(tenantId: string, nodeId: string): Promise<Float32Array | null> {
    if (!this.stmts) return null;
    const row = await this.stmts.get.get(tenantId, nodeId, tenantId) as { embedding: Buffer } | undefined;
    return row ? new Float32Array(row.embedding.buffer, row.embedding.byteOffset, row.embedding.byteLength / 4) : null;
  }

  /**
   * The tenant's next stored vectors after cursor `after` (0 to start), about `limit` of
   * them, and the cursor to go on from (null: none left). For loading the index in slices.
   * With vec0's chunk layout known, the cursor is a chunk and each chunk's 1,024 vectors
   * come in one read (vec0-chunks.ts); otherwise it is a node seq, and vectors are read one
   * rowid lookup each after a page of the nodes table (a rowid range over vec0 is a scan).
   */
  async page(tenantId: string, after: number, limit: number): Promise<{ vectors: StoredVector[]; last: number | null }> {
    if (!this.stmts) return { vectors: [], last: null };
    const chunks = this.stmts.chunks;
    if (chunks) {
      const { vectors, last } = await chunks.page(tenantId, after, Math.max(1, Math.ceil(limit / 1024)));
      if (vectors.length === 0) return { vectors: [], last };
      const ids = new Map(
        (await this.stmts.idsOf.all(tenantId, JSON.stringify(vectors.map((v) => v.seq))) as Array<{ seq: number; id: string }>).map((r) => [r.seq, r.id]),
      );
      return { vectors: vectors.filter((v) => ids.has(v.seq)).map((v) => ({ seq: v.seq, id: ids.get(v.seq)!, embedding: v.embedding })), last };
    }
    const nodes = await this.stmts.seqPage.all(tenantId, after, limit) as Array<{ seq: number; id: string }>;
    const vectors: StoredVector[] = [];
    for (const n of nodes) {
      const row = await this.stmts.bySeq.get(BigInt(n.seq)) as { embedding: Buffer } | undefined;
      if (row) vectors.push({ seq: n.seq, id: n.id, embedding: row.embedding });
    }
    return { vectors, last: nodes.length ? nodes[nodes.length - 1].seq : null };
  }

  /** How many of the tenant's nodes have a vector (from the nodes table: vec0 would scan). */
  async count(tenantId: string): Promise<number> {
    return await this.countStmt.get(tenantId) as number;
  }

  /** The stored vectors at these node seqs (the tenant's only). */
  async bySeqs(tenantId: string, seqs: number[]): Promise<Array<{ seq: number; embedding: Buffer }>> {
    if (!this.stmts) return [];
    const out: Array<{ seq: number; embedding: Buffer }> = [];
    for (const seq of seqs) {
      const row = await this.stmts.bySeq.get(BigInt(seq)) as { embedding: Buffer; tenant_id: string } | undefined;
      if (row && row.tenant_id === tenantId) out.push({ seq, embedding: row.embedding });
    }
    return out;
  }

  /** The stored vectors of these nodes. */
  async some(tenantId: string, nodeIds: string[]): Promise<StoredVector[]> {
    if (!this.stmts || nodeIds.length === 0) return [];
    return await this.stmts.some.all(tenantId, JSON.stringify(nodeIds), tenantId) as StoredVector[];
  }

  private require(): Stmts {
    if (!this.stmts) throw new Error('vector table not initialised: the embedding model is not ready');
    return this.stmts;
  }

  private prepare(dimension: number): void {
    this.dim = dimension;
    this.stmts = {
      del: this.db.prepare('DELETE FROM node_vectors WHERE rowid = ?'),
      ins: this.db.prepare('INSERT INTO node_vectors (rowid, tenant_id, embedding) VALUES (?, ?, ?)'),
      knn: this.db.prepare(
        `WITH hits AS (SELECT rowid, distance FROM node_vectors WHERE embedding MATCH ? AND k = ? AND tenant_id = ?)
         SELECT n.id, n.seq, hits.distance FROM hits JOIN nodes n ON n.seq = hits.rowid ORDER BY hits.distance, n.seq`,
      ),
      get: this.db.prepare(
        'SELECT embedding FROM node_vectors WHERE rowid = (SELECT seq FROM nodes WHERE tenant_id = ? AND id = ?) AND tenant_id = ?',
      ),
      some: this.db.prepare(
        `SELECT n.seq, n.id, v.embedding FROM nodes n JOIN node_vectors v ON v.rowid = n.seq
         WHERE n.tenant_id = ? AND n.id IN (SELECT value FROM json_each(?)) AND v.tenant_id = ?`,
      ),
      // `+tenant_id`: walk the primary key from the cursor (the tenant indexes would read every
      // one of the tenant's nodes for each page: quadratic over a load, ~135 ms a page at 1M).
      seqPage: this.db.prepare('SELECT seq, id FROM nodes WHERE +tenant_id = ? AND seq > ? ORDER BY seq LIMIT ?'),
      bySeq: this.db.prepare('SELECT tenant_id, embedding FROM node_vectors WHERE rowid = ?'),
      idsOf: this.db.prepare('SELECT seq, id FROM nodes WHERE +tenant_id = ? AND seq IN (SELECT value FROM json_each(?))'),
      chunks: this.opts.chunks === false ? null : Vec0Chunks.open(this.db, 'node_vectors', dimension),
    };
  }
}
