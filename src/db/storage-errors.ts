// A full disk or an I/O error is the machine's trouble, not the request's: writes answer
// 507 insufficient_storage, jobs wait and retry, /health says degraded with the reason.
// StorageState remembers the last such error until an API write succeeds again, or until
// STORAGE_DEGRADED_MS pass without a new one (background jobs only report failures: many
// of their writes update rows in place, which a full disk still allows).
import type { Clock } from '../clock.js';

const CODES = new Set(['SQLITE_FULL', 'ENOSPC', 'EDQUOT', 'EIO', 'EROFS']);

/** True for SQLITE_FULL, SQLITE_IOERR (and its extended codes), ENOSPC and kin, also when wrapped as a cause. */
export function isStorageError(e: unknown, depth = 0): boolean {
  if (!e || typeof e !== 'object' || depth > 3) return false;
  const code = (e as { code?: unknown }).code;
  if (typeof code === 'string' && (CODES.has(code) || code.startsWith('SQLITE_IOERR'))) return true;
  const msg = (e as { message?: unknown }).message;
  if (typeof msg === 'string' && /database or disk is full|disk I\/O error|no space left on device/i.test(msg)) return true;
  return isStorageError((e as { cause?: unknown }).cause, depth + 1);
}

export function storageReason(e: unknown): string {
  const code = (e as { code?: string })?.code ?? 'I/O error';
  return code === 'SQLITE_FULL' || code === 'ENOSPC' ? 'the disk is full (writes are refused, reads still work)' : `storage I/O error (${code})`;
}

export const STORAGE_DEGRADED_MS = 60_000;

export class StorageState {
  private failure: { reason: string; at: number } | null = null;
  constructor(private readonly clock: Pick<Clock, 'now'>) {}

  failed(e: unknown): void {
    this.failure = { reason: storageReason(e), at: this.clock.now() };
  }
  /** A write went through: the storage is fine again. */
  ok(): void {
    this.failure = null;
  }
  /** Why the storage is degraded, or undefined when it is not. */
  reason(): string | undefined {
    if (this.failure && this.clock.now() - this.failure.at >= STORAGE_DEGRADED_MS) this.failure = null;
    return this.failure?.reason;
  }
}
