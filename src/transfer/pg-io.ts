// Reading and writing whole tables on PostgreSQL in batches, for `rhizome migrate`.
import type { PgClient } from '../db/pg/connect.js';
import type { CopyTable } from './tables.js';
import type { Value } from './checksum.js';

const MAX_PARAMS = 30_000;
const MAX_BATCH_BYTES = 16 * 1024 * 1024;

const q = (c: string) => `"${c}"`;

/** Buffers rows and inserts them many to a statement (bounded by parameters and bytes). */
export class PgBatchInsert {
  private rows: Value[][] = [];
  private bytes = 0;
  private readonly perBatch: number;
  private inFlight: Promise<void> = Promise.resolve();

  constructor(private readonly pg: PgClient, private readonly table: string, private readonly columns: string[]) {
    this.perBatch = Math.max(1, Math.min(1000, Math.floor(MAX_PARAMS / columns.length)));
  }

  async add(row: Value[]): Promise<void> {
    this.rows.push(row);
    for (const v of row) this.bytes += typeof v === 'string' ? v.length : v instanceof Uint8Array ? v.byteLength : 8;
    if (this.rows.length >= this.perBatch || this.bytes >= MAX_BATCH_BYTES) await this.flush();
  }

  /**
   * Sends the buffered rows. The statement is left running while the caller reads and
   * buffers the next batch (one in flight at most): the reading and PostgreSQL's work
   * overlap. `done()` waits for the last one.
   */
  async flush(): Promise<void> {
    await this.inFlight;
    if (!this.rows.length) return;
    const n = this.columns.length;
    const values = this.rows.map((_, r) => `(${this.columns.map((_c, i) => `$${r * n + i + 1}`).join(', ')})`).join(', ');
    this.inFlight = this.pg.query(`INSERT INTO ${q(this.table)} (${this.columns.map(q).join(', ')}) VALUES ${values}`, this.rows.flat()).then(() => undefined);
    this.inFlight.catch(() => {}); // awaited (and thrown) by the next flush or done()
    this.rows = [];
    this.bytes = 0;
  }

  /** Sends what is left and waits until PostgreSQL has every row. */
  async done(): Promise<void> {
    await this.flush();
    await this.inFlight;
  }
}

/** Every row of a table, in key order, a page at a time (values in column order). */
export async function* readPgTable(pg: PgClient, t: CopyTable, columns: string[], pageSize = 1000): AsyncGenerator<Value[]> {
  const keyIdx = t.key.map((k) => columns.indexOf(k));
  const cols = columns.map(q).join(', ');
  const order = t.key.map(q).join(', ');
  let last: Value[] | null = null;
  for (;;) {
    const where = last ? `WHERE (${order}) > (${t.key.map((_, i) => `$${i + 1}`).join(', ')})` : '';
    const params: Value[] = last ?? [];
    const r = await pg.query({ text: `SELECT ${cols} FROM ${q(t.name)} ${where} ORDER BY ${order} LIMIT ${pageSize}`, values: params, rowMode: 'array' });
    for (const row of r.rows as Value[][]) yield row;
    if (r.rows.length < pageSize) return;
    const tail = r.rows[r.rows.length - 1] as Value[];
    last = keyIdx.map((i) => tail[i]);
  }
}

export async function pgCount(pg: PgClient, table: string): Promise<number> {
  const r = await pg.query(`SELECT count(*) AS n FROM ${q(table)}`);
  return Number(r.rows[0].n);
}
