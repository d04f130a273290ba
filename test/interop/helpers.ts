import type { VaultFile } from '../../src/interop/types.js';

export function vault(files: Record<string, string | Uint8Array>): VaultFile[] {
  return Object.entries(files).map(([path, v]) => ({ path, bytes: typeof v === 'string' ? new TextEncoder().encode(v) : v }));
}
