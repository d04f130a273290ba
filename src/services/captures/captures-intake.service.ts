// Intake: a capture and the job that processes it are committed in one transaction before
// the client hears 201, so an acknowledged capture is never lost.
import { createHash } from 'node:crypto';
import { iso, type Clock } from '../../clock.js';
import type { UnitOfWork } from '../../db/unit-of-work.js';
import { NotFoundError, UnsupportedMediaTypeError, ValidationError } from '../../errors.js';
import { newId } from '../../ids.js';
import { detectUpload, UnsupportedFile, type Detected } from '../../ingest/sniff.js';
import { normalizeTag } from '../../ingest/tags.js';
import { normalizeUrl } from '../../ingest/url.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { CaptureRow, CapturesRepo } from '../../repos/captures.repo.js';
import type { CaptureCreateInput, CaptureDto } from '../../schemas/captures.js';
import { CAPTURE_JOB, toCaptureDto, type CaptureJobPayload } from './captures-view.js';

export interface UploadInput {
  filename: string;
  bytes: Uint8Array;
  title?: string;
  why?: string;
  source?: CaptureDto['source'];
}

/**
 * What an importer knows beyond the API's fields: when the item was first saved (the node
 * keeps that creation date) and which nodes embed it (they get a `references` link to the
 * capture's node when it is made). Kept in the capture's metadata.
 */
export interface CaptureOrigin {
  originalCreatedAt?: string;
  linkFrom?: string[];
}

function originMetadata(o: CaptureOrigin | undefined): Record<string, unknown> {
  const m: Record<string, unknown> = {};
  if (o?.originalCreatedAt && !Number.isNaN(Date.parse(o.originalCreatedAt))) m.original_created_at = new Date(o.originalCreatedAt).toISOString();
  if (o?.linkFrom?.length) m.link_from = [...new Set(o.linkFrom)];
  return m;
}

/** Uploaded documents map onto the contract's content types; the precise type is in metadata.detected_mime. */
const UPLOAD_CONTENT_TYPE: Record<Detected['kind'], CaptureDto['content_type']> = {
  pdf: 'pdf', image: 'image', docx: 'note', doc: 'note', text: 'note', markdown: 'note', html: 'article',
};

export class CapturesIntake {
  constructor(
    private readonly tx: UnitOfWork,
    private readonly repo: CapturesRepo,
    private readonly queue: JobQueue,
    private readonly clock: Clock,
  ) {}

  async create(tenantId: string, input: CaptureCreateInput, origin?: CaptureOrigin): Promise<{ id: string; status: 'pending' }> {
    const metadata: Record<string, unknown> = originMetadata(origin);
    if (input.raw_content) metadata.raw_content_bytes = Buffer.byteLength(input.raw_content);
    const tags = [...new Set((input.tags ?? []).map(normalizeTag).filter(Boolean))];
    if (tags.length) metadata.user_tags = tags;
    return await this.commit(tenantId, {
      title: input.title,
      url: input.url ?? null,
      url_normalized: input.url ? normalizeUrl(input.url) : null,
      content_type: input.content_type,
      why: input.why ?? null,
      selected_text: input.selected_text ?? null,
      raw_content: input.raw_content ?? null,
      source: input.source,
      metadata,
    });
  }

  async upload(tenantId: string, input: UploadInput, origin?: CaptureOrigin): Promise<{ id: string; status: 'pending' }> {
    if (input.bytes.length === 0) throw new ValidationError('the uploaded file is empty', [{ path: 'file', message: 'empty file' }]);
    let detected: Detected;
    try {
      detected = await detectUpload(input.bytes, input.filename);
    } catch (e) {
      if (e instanceof UnsupportedFile) throw new UnsupportedMediaTypeError(e.message);
      throw e;
    }
    const base = input.filename.split(/[\\/]/).pop() ?? '';
    // A Markdown or text file already captured or imported with the same content is
    // recognised: this capture updates that node instead of making a second one.
    const hash = createHash('sha256').update(input.bytes).digest('hex');
    const recognised = detected.kind === 'markdown' || detected.kind === 'text' ? await this.repo.nodeForContent(tenantId, hash) : undefined;
    const title = input.title?.trim() || base.replace(/\.[^.]+$/, '').trim() || 'Untitled upload';
    return this.commit(
      tenantId,
      {
        title: title.slice(0, 500),
        url: null,
        url_normalized: null,
        content_type: UPLOAD_CONTENT_TYPE[detected.kind],
        why: input.why ?? null,
        selected_text: null,
        raw_content: null,
        source: input.source ?? 'api',
        metadata: { origin: 'upload', filename: base || 'upload', byte_size: input.bytes.length, detected_mime: detected.mime, detected_kind: detected.kind, content_sha256: hash, ...originMetadata(origin) },
      },
      { filename: base || `upload.${detected.ext}`, mime: detected.mime, bytes: input.bytes },
      recognised,
    );
  }

  /** The latest capture of the page behind this URL, in its normal form. */
  async check(tenantId: string, url: string): Promise<CaptureDto> {
    const norm = normalizeUrl(url);
    const row = norm ? await this.repo.latestByUrl(tenantId, norm) : undefined;
    if (!row) throw new NotFoundError('Capture of this URL');
    return toCaptureDto(row);
  }

  private async commit(
    tenantId: string,
    c: Pick<CaptureRow, 'title' | 'url' | 'url_normalized' | 'content_type' | 'why' | 'selected_text' | 'raw_content' | 'source'> & { metadata: Record<string, unknown> },
    file?: { filename: string; mime: string; bytes: Uint8Array },
    nodeId?: string,
  ): Promise<{ id: string; status: 'pending' }> {
    const id = newId('cap');
    const now = iso(this.clock.now());
    await this.tx.withTx(async () => {
      await this.repo.insert({ ...c, id, tenant_id: tenantId, status: 'pending', metadata: JSON.stringify(c.metadata), attempts: 1, node_id: nodeId ?? null, created_at: now, updated_at: now });
      if (file) await this.repo.putFile(tenantId, id, file.filename, file.mime, file.bytes);
      await this.repo.addEvent(tenantId, id, 'created', now, { source: c.source, content_type: c.content_type, ...(c.url ? { url: c.url } : {}), ...(file ? { filename: file.filename, byte_size: file.bytes.length } : {}), ...(nodeId ? { recognised_node_id: nodeId } : {}) });
      const payload: CaptureJobPayload = { capture_id: id, run: 1 };
      await this.queue.enqueue(tenantId, CAPTURE_JOB, payload, { dedupeKey: `capture:${id}:1` });
      await this.repo.addEvent(tenantId, id, 'queued', now, { run: 1 });
    });
    return { id, status: 'pending' };
  }
}
