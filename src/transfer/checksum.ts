// Per-table checksums that do not depend on row order (the backends order text differently):
// the sum, modulo 2^64, of the first 8 bytes of each row's SHA-256 over a canonical
// encoding of its values (null, number, text and bytes kept apart). With the row count it
// tells a faithful copy from one that lost, duplicated or altered a row.
import { createHash } from 'node:crypto';

export type Value = null | number | bigint | string | Buffer | Uint8Array;

function canonical(v: Value): unknown {
  if (v === null || v === undefined) return null;
  if (typeof v === 'bigint') return { n: v.toString() };
  if (typeof v === 'number') return { n: Number.isInteger(v) ? v.toString() : v.toString() };
  if (typeof v === 'string') return v;
  return { b: Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('hex') };
}

export class TableChecksum {
  rows = 0;
  private sum = 0n;

  add(values: Value[]): void {
    const h = createHash('sha256').update(JSON.stringify(values.map(canonical))).digest();
    this.sum = (this.sum + h.readBigUInt64BE(0)) & 0xffffffffffffffffn;
    this.rows++;
  }

  get hex(): string {
    return this.sum.toString(16).padStart(16, '0');
  }
}

export interface TableReport {
  table: string;
  rows: number;
  checksum: string;
}
