// Size limits for import inputs. Files over the upload limit are reported, never read whole;
// a zip whose entries would expand past the archive cap is refused before anything inflates.
import { UPLOAD_MAX_BYTES } from '../../schemas/enums.js';

export interface InputLimits {
  /** Largest single file (or zip entry), in bytes. Default: the upload limit, 25 MB. */
  maxFileBytes: number;
  /** Largest total a zip may expand to, in bytes. Default 512 MiB. */
  maxTotalBytes: number;
  /** Most entries a zip (or files a folder) may hold. Default 100,000. */
  maxEntries: number;
}

export const DEFAULT_LIMITS: InputLimits = {
  maxFileBytes: UPLOAD_MAX_BYTES,
  maxTotalBytes: 512 * 1024 * 1024,
  maxEntries: 100_000,
};

export function mb(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
