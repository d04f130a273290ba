// Reads a folder tree into vault files. Symbolic links are followed (vaults often link
// shared folders in), but a link leading back into one of its own ancestors is a loop:
// it is reported and not entered. Files over the size limit are reported, not read.
import { readdir, readFile, realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Problem, VaultFile } from '../types.js';
import { DEFAULT_LIMITS, mb, type InputLimits } from './limits.js';

export interface SourceResult {
  files: VaultFile[];
  problems: Problem[];
}

export async function readDirectoryTree(root: string, limits: Partial<InputLimits> = {}): Promise<SourceResult> {
  const lim = { ...DEFAULT_LIMITS, ...limits };
  const files: VaultFile[] = [];
  const problems: Problem[] = [];
  let count = 0;

  async function walk(dir: string, rel: string, ancestors: string[]): Promise<void> {
    const entries = await readdir(dir, { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      const abs = join(dir, e.name);
      const path = rel ? `${rel}/${e.name}` : e.name;
      let real: string;
      let info;
      try {
        real = await realpath(abs);
        info = await stat(abs);
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        problems.push(code === 'ELOOP'
          ? { path, kind: 'symlink_loop', detail: 'symbolic link loop; not followed' }
          : { path, kind: 'unreadable', detail: e.isSymbolicLink() ? 'broken symbolic link' : `cannot read (${code ?? err})` });
        continue;
      }
      if (info.isDirectory()) {
        if (ancestors.includes(real)) {
          problems.push({ path, kind: 'symlink_loop', detail: 'symbolic link back into one of its own parent folders; not followed' });
          continue;
        }
        await walk(abs, path, [...ancestors, real]);
      } else if (info.isFile()) {
        if (++count > lim.maxEntries) {
          if (count === lim.maxEntries + 1) problems.push({ path, kind: 'too_large', detail: `more than ${lim.maxEntries} files; the rest are not read` });
          continue;
        }
        if (info.size > lim.maxFileBytes) {
          problems.push({ path, kind: 'too_large', detail: `${mb(info.size)} is over the ${mb(lim.maxFileBytes)} limit; not read` });
          continue;
        }
        try {
          files.push({ path, bytes: new Uint8Array(await readFile(abs)) });
        } catch (err) {
          problems.push({ path, kind: 'unreadable', detail: `cannot read (${(err as NodeJS.ErrnoException).code ?? err})` });
        }
      }
    }
  }

  await walk(root, '', [await realpath(root)]);
  return { files, problems };
}
