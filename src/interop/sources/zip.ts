// Reads a zip archive into vault files, defensively. The central directory is read first
// without inflating anything: entries whose names climb out of the archive (`..`) or are
// absolute are reported and skipped; an archive whose entries together would expand past
// the cap, or hold too many entries, is a zip bomb: reported, nothing expanded. While
// inflating, yauzl checks each entry against its declared size, so a lying header fails
// that entry instead of expanding without end.
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import type { Problem, VaultFile } from '../types.js';
import { DEFAULT_LIMITS, mb, type InputLimits } from './limits.js';
import type { SourceResult } from './directory.js';

function open(buf: Buffer): Promise<ZipFile> {
  return new Promise((resolve, reject) =>
    yauzl.fromBuffer(buf, { lazyEntries: true, decodeStrings: false, validateEntrySizes: true }, (err, zip) => (err ? reject(err) : resolve(zip))),
  );
}

function listEntries(zip: ZipFile, maxEntries: number): Promise<{ entries: Entry[]; tooMany: boolean }> {
  return new Promise((resolve, reject) => {
    const entries: Entry[] = [];
    zip.on('entry', (e: Entry) => {
      entries.push(e);
      if (entries.length > maxEntries) return resolve({ entries, tooMany: true });
      zip.readEntry();
    });
    zip.on('end', () => resolve({ entries, tooMany: false }));
    zip.on('error', reject);
    zip.readEntry();
  });
}

function inflate(zip: ZipFile, entry: Entry, max: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (err, stream) => {
      if (err) return reject(err);
      const chunks: Buffer[] = [];
      let size = 0;
      stream.on('data', (c: Buffer) => {
        size += c.length;
        if (size > max) stream.destroy(new Error(`expands past ${mb(max)}`));
        else chunks.push(c);
      });
      stream.on('end', () => resolve(Buffer.concat(chunks)));
      stream.on('error', reject);
    });
  });
}

function entryName(e: Entry): string {
  const raw = e.fileName as unknown as Buffer;
  return yauzl.getFileNameLowLevel(e.generalPurposeBitFlag, raw, e.extraFields, false);
}

export async function readZip(bytes: Uint8Array, limits: Partial<InputLimits> = {}): Promise<SourceResult> {
  const lim = { ...DEFAULT_LIMITS, ...limits };
  const problems: Problem[] = [];
  let zip: ZipFile;
  try {
    zip = await open(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  } catch (e) {
    return { files: [], problems: [{ path: '', kind: 'unreadable', detail: `not a readable zip archive: ${(e as Error).message}` }] };
  }
  try {
    const { entries, tooMany } = await listEntries(zip, lim.maxEntries);
    if (tooMany) return { files: [], problems: [{ path: '', kind: 'zip_bomb', detail: `more than ${lim.maxEntries} entries; nothing expanded` }] };
    const declared = entries.reduce((s, e) => s + e.uncompressedSize, 0);
    if (declared > lim.maxTotalBytes) {
      return { files: [], problems: [{ path: '', kind: 'zip_bomb', detail: `entries would expand to ${mb(declared)}, over the ${mb(lim.maxTotalBytes)} cap; nothing expanded` }] };
    }
    const files: VaultFile[] = [];
    const seen = new Set<string>();
    for (const e of entries) {
      const name = entryName(e);
      if (name.endsWith('/')) continue;
      const unsafe = yauzl.validateFileName(name);
      if (unsafe) { problems.push({ path: name, kind: 'unsafe_path', detail: `${unsafe}; skipped` }); continue; }
      const path = name.replace(/^(\.\/)+/, '');
      if (seen.has(path)) { problems.push({ path, kind: 'unsafe_path', detail: 'the archive holds this name twice; the first is used' }); continue; }
      seen.add(path);
      if (e.uncompressedSize > lim.maxFileBytes) {
        problems.push({ path, kind: 'too_large', detail: `${mb(e.uncompressedSize)} is over the ${mb(lim.maxFileBytes)} limit; not expanded` });
        continue;
      }
      if (e.isEncrypted()) { problems.push({ path, kind: 'unreadable', detail: 'encrypted entry; skipped' }); continue; }
      try {
        files.push({ path, bytes: new Uint8Array(await inflate(zip, e, lim.maxFileBytes)) });
      } catch (err) {
        problems.push({ path, kind: 'unreadable', detail: `cannot expand: ${(err as Error).message}` });
      }
    }
    return { files, problems };
  } catch (e) {
    return { files: [], problems: [...problems, { path: '', kind: 'unreadable', detail: `not a readable zip archive: ${(e as Error).message}` }] };
  } finally {
    zip.close();
  }
}
