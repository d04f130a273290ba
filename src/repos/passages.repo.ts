// Passage vectors of long notes (node_passages): the exact float32 vectors, little-endian as
// vec0 keeps them, the source of truth for the in-memory passage index (src/vectors/). A
// passage's id is its key in that index; node_seq says which node it belongs to. Written
// whole per node (the passages of a node change together with its text). One SQL text for
// both engines except where a list of ids is read back as a table.
import type { Database } from '../db/store/contract.js';
import { sql } from '../db/store/sql.js';

export interface PassageWrite {
  start: number;
  end: number;
  vector: Float32Array;
}

/** A stored passage vector, shaped as the in-memory index reads vectors: `seq` is the passage's key, `owner` its node's seq. */
export interface StoredPassage {
  seq: number;
  id: string; // the node's id
  owner: number;
  embedding: Buffer;
}

export interface PassageSpan {
  key: number;
  node_id: string;
  start: number;
  end: number;
}

const bytesOf = (v: Float32Array) => Buffer.from(v.buffer, v.byteOffset, v.byteLength);
const COLUMNS = sql.raw('id AS seq, node_id AS id, node_seq AS owner, embedding');
/**
 * By the passage's key. Not `ORDER BY id`: both engines resolve an ORDER BY name to an output
 * column first, and COLUMNS names the node's id `id` — pages were ordered by node id (a sort of
 * every remaining row: loading 150k passages took ~40 s, quadratic) and their cursor, the last
 * row's key, skipped passages of notes whose ids sort out of step with their keys.
 */
const BY_KEY = sql.raw('ORDER BY node_passages.id');

export class PassagesRepo {
  constructor(private readonly db: Database) {}

  private inList(column: 'node_id' | 'node_seq' | 'id', values: Array<string | number>) {
    const col = sql.ref(column);
    if (this.db.engine !== 'postgres') return sql`${col} IN (SELECT j.value FROM json_each(${JSON.stringify(values)}) j)`;
    return column === 'node_id' ? sql`${col} = ANY(${values}::text[])` : sql`${col} = ANY(${values}::bigint[])`;
  }

  /** Replaces a node's passages (inside the caller's transaction). */
  async replace(tenantId: string, nodeSeq: number, nodeId: string, passages: PassageWrite[]): Promise<void> {
    await this.db.run(sql`DELETE FROM node_passages WHERE tenant_id = ${tenantId} AND node_seq = ${nodeSeq}`);
    for (const p of passages) {
      await this.db.run(sql`INSERT INTO node_passages (tenant_id, node_id, node_seq, start_offset, end_offset, embedding)
        VALUES (${tenantId}, ${nodeId}, ${nodeSeq}, ${p.start}, ${p.end}, ${bytesOf(p.vector)})`);
    }
  }

  async deleteNode(tenantId: string, nodeSeq: number): Promise<void> {
    await this.db.run(sql`DELETE FROM node_passages WHERE tenant_id = ${tenantId} AND node_seq = ${nodeSeq}`);
  }

  /** Every passage of every tenant (a new embedding space: they are all recomputed). */
  async clearAll(): Promise<void> {
    await this.db.run(sql`DELETE FROM node_passages`);
  }

  /** The tenant's next passages after key `after` (0 to start), at most `limit`; `last` is the cursor to go on from (null: none left). */
  async page(tenantId: string, after: number, limit: number): Promise<{ vectors: StoredPassage[]; last: number | null }> {
    const rows = await this.db.all(sql<StoredPassage>`SELECT ${COLUMNS} FROM node_passages WHERE tenant_id = ${tenantId} AND id > ${after} ${BY_KEY} LIMIT ${limit}`);
    return { vectors: rows, last: rows.length < limit ? null : rows[rows.length - 1].seq };
  }

  /** The passages of these nodes. */
  async some(tenantId: string, nodeIds: string[]): Promise<StoredPassage[]> {
    if (nodeIds.length === 0) return [];
    return await this.db.all(sql<StoredPassage>`SELECT ${COLUMNS} FROM node_passages WHERE tenant_id = ${tenantId} AND ${this.inList('node_id', nodeIds)} ${BY_KEY}`);
  }

  /** The passages of the nodes at these seqs. */
  async ofSeqs(tenantId: string, seqs: number[]): Promise<StoredPassage[]> {
    if (seqs.length === 0) return [];
    return await this.db.all(sql<StoredPassage>`SELECT ${COLUMNS} FROM node_passages WHERE tenant_id = ${tenantId} AND ${this.inList('node_seq', seqs)} ${BY_KEY}`);
  }

  /** Where these passages lie in their notes' bodies. */
  async spans(tenantId: string, keys: number[]): Promise<PassageSpan[]> {
    if (keys.length === 0) return [];
    return await this.db.all(
      sql<PassageSpan>`SELECT id AS key, node_id, start_offset AS start, end_offset AS "end" FROM node_passages WHERE tenant_id = ${tenantId} AND ${this.inList('id', keys)}`,
    );
  }

  async count(tenantId: string): Promise<number> {
    return Number((await this.db.value(sql<number>`SELECT count(*) FROM node_passages WHERE tenant_id = ${tenantId}`)) ?? 0);
  }
}
