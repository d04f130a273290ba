// The exported vault as one zip, streamed (the HTTP download) or collected (tests, CLI).
import yazl from 'yazl';
import type { Readable } from 'node:stream';
import type { ExportFile } from './types.js';

export function zipStream(files: ExportFile[], mtime = new Date()): Readable {
  const zip = new yazl.ZipFile();
  for (const f of files) zip.addBuffer(Buffer.from(f.bytes.buffer, f.bytes.byteOffset, f.bytes.byteLength), f.path, { mtime, compress: true });
  zip.end();
  return zip.outputStream as unknown as Readable;
}

export async function zipBuffer(files: ExportFile[], mtime = new Date()): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const c of zipStream(files, mtime)) chunks.push(c as Buffer);
  return new Uint8Array(Buffer.concat(chunks));
}
