// Node vectors on PostgreSQL: the twin of VectorsRepo (vec0) over `node_vectors (seq,
// tenant_id, embedding bytea)`, little-endian float32 exactly as vec0 stores them, with the
// same public interface so the VectorStore and the services use it unchanged. The table
// exists whatever the model (schema.pg.sql): a new embedding space only empties it and
// records the model in embedding_spaces. Exact k-NN (used only while a tenant's in-memory
// index loads) is brute force in JavaScript over the tenant's vectors read in pages:
// PostgreSQL 15 here has no vector type to compute a distance with (docs/scale-out.md).
import type { PgStore } from '../../db/store/pg-store.js';
import type { EmbeddingSpace, KnnHit, StoredVector, VectorsApi } from '../vectors.repo.js';

const VEC0_MAX_K = 4096;
const SPACE_TTL_MS = 1000;
/** Vectors read per round trip by knnExact (~2 MB at 512 dimensions). */
const SCAN_PAGE = 1024;

/** The vector's bytes as stored (float32 in the machine's order: little-endian, as vec0 keeps them). */
function bytesOf(v: Float32Array): Buffer {
  return Buffer.from(v.buffer, v.byteOffset, v.byteLength);
}

/**
 * The bridge hands bytea back as a Uint8Array: a Buffer over the same bytes, copied only if
 * its offset is not a multiple of 4 (a Float32Array must be able to view it, as it can
 * better-sqlite3's Buffers).
 */
function aligned(u: Uint8Array): Buffer {
  return u.byteOffset % 4 === 0 ? Buffer.from(u.buffer, u.byteOffset, u.byteLength) : Buffer.from(u);
}

function floats(u: Uint8Array): Float32Array {
  const a = aligned(u);
  return new Float32Array(a.buffer, a.byteOffset, a.byteLength / 4);
}

export class PgVectorsRepo implements VectorsApi {
  private dim = 0;

  constructor(private readonly db: PgStore) {}

  private async q<T>(sql: string, params: unknown[]): Promise<T[]> {
    return (await this.db.query<T>(sql, params)).rows;
  }

  /**
   * The embedding space, read at most once a second outside transactions: the in-memory
   * index asks for it on every search (several times), a statement each is a round trip
   * (~0.4 ms) on PostgreSQL, and a model change restarts the servers anyway.
   */
  async space(): Promise<EmbeddingSpace | undefined> {
    const now = Date.now();
    if (this.cached && now - this.cached.at < SPACE_TTL_MS && !this.db.inTransaction) return this.cached.space;
    const space = (await this.q<EmbeddingSpace>('SELECT model_id, dimension FROM embedding_spaces WHERE id = 1', []))[0];
    this.cached = this.db.inTransaction ? undefined : { space, at: now };
    if (space) this.dim = space.dimension;
    return space;
  }
  private cached: { space: EmbeddingSpace | undefined; at: number } | undefined;

  /** True when the stored vectors belong to exactly this model and dimension. */
  async matches(modelId: string, dimension: number): Promise<boolean> {
    const cur = await this.space();
    return !!cur && cur.model_id === modelId && cur.dimension === dimension;
  }

  /** Drops every vector and records the new model's space (the caller holds the transaction). */
  async recreate(modelId: string, dimension: number, at: string): Promise<void> {
    this.cached = undefined;
    await this.q('DELETE FROM node_vectors', []);
    await this.q(
      `INSERT INTO embedding_spaces (id, model_id, dimension, created_at) VALUES (1, $1, $2, $3)
       ON CONFLICT (id) DO UPDATE SET model_id = excluded.model_id, dimension = excluded.dimension, created_at = excluded.created_at`,
      [modelId, dimension, at],
    );
    this.dim = dimension;
  }

  get dimension(): number {
    return this.dim;
  }

  get ready(): boolean {
    return this.dim > 0;
  }

  async upsert(tenantId: string, seq: number, vector: Float32Array): Promise<void> {
    if (!this.ready) throw new Error('vector table not initialised: the embedding model is not ready');
    await this.q(
      `INSERT INTO node_vectors (seq, tenant_id, embedding) VALUES ($1, $2, $3)
       ON CONFLICT (seq) DO UPDATE SET tenant_id = excluded.tenant_id, embedding = excluded.embedding`,
      [seq, tenantId, bytesOf(vector)],
    );
  }

  async delete(seq: number): Promise<void> {
    await this.q('DELETE FROM node_vectors WHERE seq = $1', [seq]);
  }

  /**
   * Exact k nearest nodes of the tenant by cosine distance, nearest first (ties by seq), as
   * vec0's brute force ranks them: the tenant's vectors are read a page at a time and scored here.
   */
  async knnExact(tenantId: string, vector: Float32Array, k: number): Promise<KnnHit[]> {
    if (!this.ready || vector.length !== this.dim || k <= 0) return [];
    const want = Math.min(k, VEC0_MAX_K);
    let qn = 0;
    for (let i = 0; i < vector.length; i++) qn += vector[i] * vector[i];
    qn = Math.sqrt(qn);
    let best: KnnHit[] = [];
    let worst = Infinity; // the distance a hit must beat once `best` is full
    for (let after = 0; ; ) {
      const rows = await this.q<{ seq: number; id: string; embedding: Buffer }>(
        `SELECT v.seq, n.id, v.embedding FROM node_vectors v JOIN nodes n ON n.seq = v.seq
         WHERE v.tenant_id = $1 AND v.seq > $2 ORDER BY v.seq LIMIT $3`,
        [tenantId, after, SCAN_PAGE],
      );
      for (const r of rows) {
        const f = floats(r.embedding);
        if (f.length !== vector.length) continue;
        let d = 0;
        let n = 0;
        for (let i = 0; i < f.length; i++) {
          d += f[i] * vector[i];
          n += f[i] * f[i];
        }
        const distance = qn === 0 || n === 0 ? 1 : 1 - d / (qn * Math.sqrt(n));
        if (best.length >= want && distance >= worst) continue; // seqs rise: a tie loses to the earlier seq
        best.push({ id: r.id, seq: r.seq, distance });
      }
      if (best.length >= want) {
        best = trim(best, want);
        worst = best[want - 1].distance;
      }
      if (rows.length < SCAN_PAGE) break;
      after = rows[rows.length - 1].seq;
    }
    return trim(best, want);
  }

  async get(tenantId: string, nodeId: string): Promise<Float32Array | null> {
    const row = (await this.q<{ embedding: Buffer }>(
      `SELECT v.embedding FROM node_vectors v JOIN nodes n ON n.seq = v.seq
       WHERE n.tenant_id = $1 AND n.id = $2 AND v.tenant_id = $1`,
      [tenantId, nodeId],
    ))[0];
    return row ? floats(row.embedding) : null;
  }

  /**
   * The tenant's next stored vectors after node seq `after` (0 to start), at most `limit`,
   * and the cursor to go on from (null: none left). Keyset pagination on (tenant_id, seq).
   */
  async page(tenantId: string, after: number, limit: number): Promise<{ vectors: StoredVector[]; last: number | null }> {
    if (!this.ready || limit <= 0) return { vectors: [], last: null };
    const rows = await this.q<StoredVector>(
      `SELECT v.seq, n.id, v.embedding FROM node_vectors v JOIN nodes n ON n.seq = v.seq AND n.tenant_id = v.tenant_id
       WHERE v.tenant_id = $1 AND v.seq > $2 ORDER BY v.seq LIMIT $3`,
      [tenantId, after, limit],
    );
    const vectors = rows.map((r) => ({ seq: r.seq, id: r.id, embedding: aligned(r.embedding) }));
    return { vectors, last: rows.length < limit ? null : rows[rows.length - 1].seq };
  }

  /** How many of the tenant's nodes have a vector (from the nodes table, as on SQLite). */
  async count(tenantId: string): Promise<number> {
    return Number((await this.q<{ n: number }>('SELECT count(*)::int AS n FROM nodes WHERE tenant_id = $1 AND embedded_hash IS NOT NULL', [tenantId]))[0].n);
  }

  /** The stored vectors at these node seqs (the tenant's only), in the order asked. */
  async bySeqs(tenantId: string, seqs: number[]): Promise<Array<{ seq: number; embedding: Buffer }>> {
    if (!this.ready || seqs.length === 0) return [];
    const rows = await this.q<{ seq: number; embedding: Buffer }>(
      'SELECT seq, embedding FROM node_vectors WHERE tenant_id = $1 AND seq = ANY($2::bigint[])',
      [tenantId, seqs],
    );
    const by = new Map(rows.map((r) => [r.seq, aligned(r.embedding)]));
    return seqs.filter((s) => by.has(s)).map((seq) => ({ seq, embedding: by.get(seq)! }));
  }

  /** The stored vectors of these nodes. */
  async some(tenantId: string, nodeIds: string[]): Promise<StoredVector[]> {
    if (!this.ready || nodeIds.length === 0) return [];
    const rows = await this.q<StoredVector>(
      `SELECT n.seq, n.id, v.embedding FROM nodes n JOIN node_vectors v ON v.seq = n.seq
       WHERE n.tenant_id = $1 AND n.id = ANY($2::text[]) AND v.tenant_id = $1 ORDER BY n.seq`,
      [tenantId, nodeIds],
    );
    return rows.map((r) => ({ seq: r.seq, id: r.id, embedding: aligned(r.embedding) }));
  }
}

/** The `k` nearest of the hits, nearest first, ties by seq. */
function trim(hits: KnnHit[], k: number): KnnHit[] {
  return hits.sort((a, b) => a.distance - b.distance || a.seq - b.seq).slice(0, k);
}
