// Node vectors in a sqlite-vec vec0 table partitioned by tenant: the exact float vectors,
// the source of truth for the in-memory index (src/vectors/). The dimension follows the
// embedding model, so the table is created here rather than in schema.sql, and
// embedding_spaces records which model filled it. Every statement is prepared once, when
// the table is known to exist.
import type Database from 'better-sqlite3';
import type { Db } from '../db/open.js';
import { Vec0Chunks } from './vec0-chunks.js';

type Stmt = Database.Statement<unknown[], unknown>;

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
    private readonly db: Db,
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
    const space = this.space();
    if (space && this.tableStmt.get()) this.prepare(space.dimension);
  }

  space(): EmbeddingSpace | undefined {
    return this.spaceStmt.get() as EmbeddingSpace | undefined;
  }

  /** True when the vector table exists for exactly this model and dimension. */
  matches(modelId: string, dimension: number): boolean {
    const cur = this.space();
    return !!cur && cur.model_id === modelId && cur.dimension === dimension && !!this.tableStmt.get();
  }

  /** Drops every vector and creates the table for a new model (the caller holds the transaction). */
  recreate(modelId: string, dimension: number, at: string): void {
    this.db.exec('DROP TABLE IF EXISTS node_vectors');
    this.db.exec(`CREATE VIRTUAL TABLE node_vectors USING vec0(tenant_id text partition key, embedding float[${dimension}] distance_metric=cosine)`);
    this.setSpaceStmt.run(modelId, dimension, at);
    this.prepare(dimension);
  }

  get dimension(): number {
    return this.dim;
  }

  get ready(): boolean {
    return this.stmts !== undefined;
  }

  upsert(tenantId: string, seq: number, vector: Float32Array): void {
    const s = this.require();
    s.del.run(BigInt(seq));
    s.ins.run(BigInt(seq), tenantId, vector);
  }

  delete(seq: number): void {
    this.stmts?.del.run(BigInt(seq));
  }

  /** Exact k nearest nodes of the tenant, nearest first (brute force over the partition): the baseline. */
  knnExact(tenantId: string, vector: Float32Array, k: number): KnnHit[] {
    if (!this.stmts || vector.length !== this.dim || k <= 0) return [];
    return this.stmts.knn.all(vector, BigInt(Math.min(k, VEC0_MAX_K)), tenantId) as KnnHit[];
  }

  get(tenantId: string, nodeId: string): Float32Array | null {
    if (!this.stmts) return null;
    const row = this.stmts.get.get(tenantId, nodeId, tenantId) as { embedding: Buffer } | undefined;
    return row ? new Float32Array(row.embedding.buffer, row.embedding.byteOffset, row.embedding.byteLength / 4) : null;
  }

  /**
   * The tenant's next stored vectors after cursor `after` (0 to start), about `limit` of
   * them, and the cursor to go on from (null: none left). For loading the index in slices.
   * With vec0's chunk layout known, the cursor is a chunk and each chunk's 1,024 vectors
   * come in one read (vec0-chunks.ts); otherwise it is a node seq, and vectors are read one
   * rowid lookup each after a page of the nodes table (a rowid range over vec0 is a scan).
   */
  page(tenantId: string, after: number, limit: number): { vectors: StoredVector[]; last: number | null } {
    if (!this.stmts) return { vectors: [], last: null };
    const chunks = this.stmts.chunks;
    if (chunks) {
      const { vectors, last } = chunks.page(tenantId, after, Math.max(1, Math.ceil(limit / 1024)));
      if (vectors.length === 0) return { vectors: [], last };
      const ids = new Map(
        (this.stmts.idsOf.all(tenantId, JSON.stringify(vectors.map((v) => v.seq))) as Array<{ seq: number; id: string }>).map((r) => [r.seq, r.id]),
      );
      return { vectors: vectors.filter((v) => ids.has(v.seq)).map((v) => ({ seq: v.seq, id: ids.get(v.seq)!, embedding: v.embedding })), last };
    }
    const nodes = this.stmts.seqPage.all(tenantId, after, limit) as Array<{ seq: number; id: string }>;
    const vectors: StoredVector[] = [];
    for (const n of nodes) {
      const row = this.stmts.bySeq.get(BigInt(n.seq)) as { embedding: Buffer } | undefined;
      if (row) vectors.push({ seq: n.seq, id: n.id, embedding: row.embedding });
    }
    return { vectors, last: nodes.length ? nodes[nodes.length - 1].seq : null };
  }

  /** How many of the tenant's nodes have a vector (from the nodes table: vec0 would scan). */
  count(tenantId: string): number {
    return this.countStmt.get(tenantId) as number;
  }

  /** The stored vectors at these node seqs (the tenant's only). */
  bySeqs(tenantId: string, seqs: number[]): Array<{ seq: number; embedding: Buffer }> {
    if (!this.stmts) return [];
    const out: Array<{ seq: number; embedding: Buffer }> = [];
    for (const seq of seqs) {
      const row = this.stmts.bySeq.get(BigInt(seq)) as { embedding: Buffer; tenant_id: string } | undefined;
      if (row && row.tenant_id === tenantId) out.push({ seq, embedding: row.embedding });
    }
    return out;
  }

  /** The stored vectors of these nodes. */
  some(tenantId: string, nodeIds: string[]): StoredVector[] {
    if (!this.stmts || nodeIds.length === 0) return [];
    return this.stmts.some.all(tenantId, JSON.stringify(nodeIds), tenantId) as StoredVector[];
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
