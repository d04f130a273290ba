// Node vectors in a sqlite-vec vec0 table partitioned by tenant: the exact float vectors,
// the source of truth. Fast approximate k-NN runs on the in-memory quantised index that
// search keeps (src/search/semantic-index.ts, read from this table); `knn` here is the
// exact brute-force search, used as the baseline that index is measured against.
// The dimension follows the embedding model, so the table is created here rather than in
// schema.sql, and embedding_spaces records which model filled it.
import type Database from 'better-sqlite3';
import type { Db } from '../db/open.js';

type Stmt = Database.Statement<unknown[], unknown>;

export interface KnnHit {
  id: string;
  seq: number;
  distance: number; // cosine distance: 0 = same direction, 2 = opposite
}

const VEC0_MAX_K = 4096;

interface Stmts {
  del: Stmt;
  ins: Stmt;
  knn: Stmt;
  get: Stmt;
}

export class VectorsRepo {
  private dim = 0;
  private stmts: Stmts | undefined;

  constructor(private readonly db: Db) {
    const space = this.space();
    if (space && this.tablesExist()) this.prepare(space.dimension);
  }

  space(): { model_id: string; dimension: number } | undefined {
    return this.db.prepare('SELECT model_id, dimension FROM embedding_spaces WHERE id = 1').get() as never;
  }

  /** Makes the vec0 tables match the model. Returns true when they had to be (re)created. */
  ensureSpace(modelId: string, dimension: number, at: string): boolean {
    // Never drop a live vector table for a model that has not told us what it is.
    if (!modelId || !(dimension > 0)) throw new Error(`refusing an embedding space without a model (id "${modelId}", dimension ${dimension})`);
    const cur = this.space();
    if (cur && cur.model_id === modelId && cur.dimension === dimension && this.tablesExist()) {
      if (!this.stmts) this.prepare(dimension);
      return false;
    }
    this.db.transaction(() => {
      this.db.exec('DROP TABLE IF EXISTS node_vectors');
      this.db.exec(`CREATE VIRTUAL TABLE node_vectors USING vec0(tenant_id text partition key, embedding float[${dimension}] distance_metric=cosine)`);
      this.db
        .prepare(
          `INSERT INTO embedding_spaces (id, model_id, dimension, created_at) VALUES (1, ?, ?, ?)
           ON CONFLICT(id) DO UPDATE SET model_id = excluded.model_id, dimension = excluded.dimension, created_at = excluded.created_at`,
        )
        .run(modelId, dimension, at);
    })();
    this.prepare(dimension);
    return true;
  }

  get dimension(): number {
    return this.dim;
  }

  upsert(tenantId: string, seq: number, vector: Float32Array): void {
    const s = this.require();
    s.del.run(BigInt(seq));
    s.ins.run(BigInt(seq), tenantId, vector);
  }

  delete(tenantId: string, seq: number): void {
    this.stmts?.del.run(BigInt(seq));
  }

  /** Exact k nearest nodes of the tenant, nearest first (brute force over the partition). */
  knn(tenantId: string, vector: Float32Array, k: number): KnnHit[] {
    if (!this.stmts || vector.length !== this.dim || k <= 0) return [];
    return this.stmts.knn.all(vector, BigInt(Math.min(k, VEC0_MAX_K)), tenantId) as KnnHit[];
  }

  get(tenantId: string, nodeId: string): Float32Array | null {
    if (!this.stmts) return null;
    const row = this.stmts.get.get(tenantId, nodeId, tenantId) as { embedding: Buffer } | undefined;
    return row ? new Float32Array(row.embedding.buffer, row.embedding.byteOffset, row.embedding.byteLength / 4) : null;
  }

  private tablesExist(): boolean {
    return !!this.db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'node_vectors'").get();
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
    };
  }
}
