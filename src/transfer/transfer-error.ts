// What `rhizome migrate` reports: a one-line error with its kind (the CLI maps it to an
// exit code), progress callbacks, and the source/target comparison.
import type { TableReport } from './checksum.js';

export class TransferError extends Error {
  constructor(message: string, readonly kind: 'usage' | 'conflict' | 'error' = 'error') {
    super(message);
  }
}

export interface Progress {
  start(total: number): void;
  tick(): void;
  stop(): void;
}

/** Throws on the first table whose row count or checksum differs. */
export function compareReports(source: TableReport[], target: TableReport[]): void {
  for (const s of source) {
    const t = target.find((x) => x.table === s.table);
    if (!t || t.rows !== s.rows) throw new TransferError(`verification failed: ${s.table} has ${s.rows} rows in the source, ${t?.rows ?? 0} in the target; nothing was kept`);
    if (t.checksum !== s.checksum) throw new TransferError(`verification failed: ${s.table}'s checksum differs (${s.checksum} vs ${t.checksum}); nothing was kept`);
  }
}
