// Reads a vec0 table's vectors a chunk at a time, straight from sqlite-vec's own shadow
// tables, for loading the in-memory index. vec0 answers a rowid *range* with a scan of
// every chunk, so the index used to read one rowid lookup per vector; a chunk row holds
// 1,024 vectors in one blob (one read of ~2.5 ms at 512-d). The layout is sqlite-vec
// 0.1.9's (`<table>_chunks`: partition, validity bitmap, int64 rowids; `<table>_vector_chunks00`:
// float32 vectors), so it is used only for tables that version created; anything else
// falls back to the rowid lookups.
import type { Statement } from '../db/store/contract.js';
import type { SqliteStore } from '../db/store/sqlite-store.js';

/** The sqlite-vec version whose chunk layout this reads. */
const LAYOUT_VERSION = 'v0.1.9';

export interface ChunkVector {
  seq: number;
  embedding: Buffer;
}

export class Vec0Chunks {
  private constructor(
    private readonly next: Statement,
    private readonly blob: Statement,
    private readonly dim: number,
  ) {}

  /** A reader for `table`, or null when the table was not made by the layout's version. */
  static open(db: SqliteStore, table: string, dim: number): Vec0Chunks | null {
    try {
      const version = db.handle.prepare(`SELECT value FROM "${table}_info" WHERE key = 'CREATE_VERSION'`).pluck().get();
      if (version !== LAYOUT_VERSION) return null;
      // Two statements, not a join: joined, SQLite scans every vector chunk for each page
      // (the blob table's key is a plain column named rowid, not the rowid).
      const next = db.prepare(`SELECT chunk_id, size, validity, rowids FROM "${table}_chunks" WHERE partition00 = ? AND chunk_id > ? ORDER BY chunk_id LIMIT ?`);
      const blob = db.prepare(`SELECT vectors FROM "${table}_vector_chunks00" WHERE rowid = ?`).pluck();
      return new Vec0Chunks(next, blob, dim);
    } catch {
      return null; // another layout: the caller reads rowid by rowid
    }
  }

  /**
   * The valid vectors of the partition's next `chunks` chunks after chunk `after`, and the
   * last chunk read (null when there was none left).
   */
  async page(partition: string, after: number, chunks: number): Promise<{ vectors: ChunkVector[]; last: number | null }> {
    const rows = await this.next.all(partition, after, chunks) as Array<{ chunk_id: number; size: number; validity: Buffer; rowids: Buffer }>;
    const vectors: ChunkVector[] = [];
    const bytes = this.dim * 4;
    for (const r of rows) {
      const blob = await this.blob.get(r.chunk_id) as Buffer | undefined;
      if (!blob) continue;
      const n = Math.min(r.size, r.validity.length * 8, r.rowids.length / 8, Math.floor(blob.length / bytes));
      for (let i = 0; i < n; i++) {
        if (!(r.validity[i >> 3] & (1 << (i & 7)))) continue;
        const seq = Number(r.rowids.readBigInt64LE(i * 8));
        vectors.push({ seq, embedding: blob.subarray(i * bytes, (i + 1) * bytes) });
      }
    }
    return { vectors, last: rows.length ? rows[rows.length - 1].chunk_id : null };
  }
}
