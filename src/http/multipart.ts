// Streams a multipart upload through busboy with the size limit enforced as bytes arrive:
// an oversized file is refused the moment it crosses the limit, never buffered whole.
import busboy from 'busboy';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { PayloadTooLargeError, UnsupportedMediaTypeError, ValidationError } from '../errors.js';

export interface UploadParts {
  filename: string;
  bytes: Buffer;
  fields: Record<string, string>;
}

const FIELD_MAX = 64 * 1024;

export function readUpload(body: ReadableStream<Uint8Array> | null, contentType: string | undefined, maxBytes: number): Promise<UploadParts> {
  if (!contentType || !/^multipart\/form-data/i.test(contentType)) {
    return Promise.reject(new UnsupportedMediaTypeError('send the file as multipart/form-data with a "file" part'));
  }
  if (!body) return Promise.reject(new ValidationError('the request has no body', [{ path: 'file', message: 'required' }]));
  return new Promise<UploadParts>((resolve, reject) => {
    let bb: busboy.Busboy;
    try {
      bb = busboy({ headers: { 'content-type': contentType }, limits: { files: 1, fileSize: maxBytes + 1, fields: 10, fieldSize: FIELD_MAX, parts: 12 } });
    } catch (e) {
      return reject(new ValidationError(`malformed multipart request: ${e instanceof Error ? e.message : String(e)}`));
    }
    const input = Readable.fromWeb(body as unknown as WebReadableStream<Uint8Array>);
    const fields: Record<string, string> = {};
    let file: { filename: string; chunks: Buffer[]; size: number } | undefined;
    let done = false;
    const finish = (err: Error | null, value?: UploadParts) => {
      if (done) return;
      done = true;
      if (err) {
        input.unpipe(bb);
        input.destroy();
        reject(err);
      } else resolve(value!);
    };
    bb.on('file', (name, stream, info) => {
      if (name !== 'file' || file) {
        stream.on('error', () => undefined); // the request's own error is reported by busboy
        stream.resume();
        return;
      }
      const f = { filename: info.filename || 'upload', chunks: [] as Buffer[], size: 0 };
      file = f;
      // A body that ends inside the file part ("Unexpected end of form") errors this stream;
      // unheard, that error would take the whole process down.
      stream.on('error', (e: Error) => finish(new ValidationError(`malformed multipart request: ${e.message}`)));
      stream.on('data', (c: Buffer) => {
        f.size += c.length;
        if (f.size > maxBytes) return finish(new PayloadTooLargeError(`the file is larger than ${maxBytes / (1024 * 1024)} MB`));
        f.chunks.push(c);
      });
      stream.on('limit', () => finish(new PayloadTooLargeError(`the file is larger than ${maxBytes / (1024 * 1024)} MB`)));
    });
    bb.on('field', (name, value, info) => {
      if (info.valueTruncated) return finish(new ValidationError(`field ${name} is too long`, [{ path: name, message: 'too long' }]));
      fields[name] = value;
    });
    bb.on('filesLimit', () => undefined);
    bb.on('partsLimit', () => finish(new ValidationError('too many parts in the upload')));
    bb.on('error', (e: Error) => finish(new ValidationError(`malformed multipart request: ${e.message}`)));
    bb.on('close', () => {
      if (!file) return finish(new ValidationError('the upload has no "file" part', [{ path: 'file', message: 'required' }]));
      finish(null, { filename: file.filename, bytes: Buffer.concat(file.chunks, file.size), fields });
    });
    input.on('error', (e) => finish(new ValidationError(`the upload was interrupted: ${e.message}`)));
    input.pipe(bb);
  });
}
