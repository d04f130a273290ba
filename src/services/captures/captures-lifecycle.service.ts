// Reads and lifecycle calls. Status rules (decisions.md leaves the details to us):
//   retry     failed → pending (new run); 409 while pending or processing, or otherwise not failed
//   reingest  completed | failed | dismissed → pending (new run, same node updated); 409 while
//             pending/processing or archived
//   archive   any → archived, remembering the previous status (idempotent)
//   unarchive archived → the remembered status (idempotent)
//   dismiss   any → dismissed (idempotent); a queued or running job then drops its result
//   delete    removes the capture, its file, activity and provenance; its node stays
import { iso, type Clock } from '../../clock.js';
import type { UnitOfWork } from '../../db/unit-of-work.js';
import { ConflictError, NotFoundError } from '../../errors.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { CaptureImageKind, CaptureRow, CaptureStatus, CapturesRepo } from '../../repos/captures.repo.js';
import type { CaptureDto } from '../../schemas/captures.js';
import { CAPTURE_JOB, toCaptureDto, type CaptureJobPayload } from './captures-view.js';

export interface CaptureContent {
  contentType: string;
  body: string | Uint8Array;
  filename?: string;
}

export class CapturesLifecycle {
  constructor(
    private readonly tx: UnitOfWork,
    private readonly repo: CapturesRepo,
    private readonly queue: JobQueue,
    private readonly clock: Clock,
  ) {}

  async list(tenantId: string, q: { status?: CaptureStatus; node_id?: string; page: number; per_page: number }) {
    const offset = (q.page - 1) * q.per_page;
    const { rows, total } = q.node_id ? await this.repo.listByNode(tenantId, q.node_id, q.per_page, offset) : await this.repo.list(tenantId, q.status, q.per_page, offset);
    return { data: rows.map(toCaptureDto), total, page: q.page, per_page: q.per_page };
  }

  async get(tenantId: string, id: string): Promise<CaptureDto> {
    return toCaptureDto(await this.row(tenantId, id));
  }

  async content(tenantId: string, id: string, format: 'markdown' | 'raw' | undefined): Promise<CaptureContent> {
    const c = await this.row(tenantId, id);
    if (format === 'markdown') {
      if (c.markdown === null) throw new NotFoundError(`Processed content of this ${c.status} capture`);
      return { contentType: 'text/markdown; charset=utf-8', body: c.markdown };
    }
    const file = await this.repo.getFile(tenantId, id);
    if (file) return { contentType: file.mime, body: new Uint8Array(file.bytes), filename: file.filename };
    if (c.raw_content !== null) return { contentType: 'text/html; charset=utf-8', body: c.raw_content };
    if (c.selected_text !== null) return { contentType: 'text/plain; charset=utf-8', body: c.selected_text };
    throw new NotFoundError('Raw content of this capture');
  }

  /** The page's Open Graph image or favicon kept at capture time. */
  async image(tenantId: string, id: string, kind: CaptureImageKind): Promise<{ mime: string; bytes: Uint8Array }> {
    await this.row(tenantId, id);
    const img = await this.repo.getImage(tenantId, id, kind);
    if (!img) throw new NotFoundError(kind === 'image' ? 'Image of this capture' : 'Favicon of this capture');
    return { mime: img.mime, bytes: new Uint8Array(img.bytes) };
  }

  async retry(tenantId: string, id: string): Promise<CaptureDto> {
    return await this.change(tenantId, id, async (c, now) => {
      if (c.status === 'processing') throw new ConflictError('the capture is being processed right now');
      if (c.status === 'pending') throw new ConflictError('the capture is already queued');
      if (c.status !== 'failed') throw new ConflictError(`only failed captures can be retried; this one is ${c.status} (use reingest to reprocess it)`);
      await this.requeue(tenantId, c, now, 'retried', { previous_error: c.error });
    });
  }

  async reingest(tenantId: string, id: string): Promise<CaptureDto> {
    return await this.change(tenantId, id, async (c, now) => {
      if (c.status === 'processing' || c.status === 'pending') throw new ConflictError(`the capture is already ${c.status}`);
      if (c.status === 'archived') throw new ConflictError('the capture is archived; unarchive it first');
      await this.requeue(tenantId, c, now, 'reingested', { previous_status: c.status });
    });
  }

  async archive(tenantId: string, id: string): Promise<CaptureDto> {
    return await this.change(tenantId, id, async (c, now) => {
      if (c.status === 'archived') return;
      await this.repo.setState(tenantId, id, { status: 'archived', status_before_archive: c.status, attempts: c.attempts, error: c.error, updated_at: now });
      await this.repo.addEvent(tenantId, id, 'archived', now, { previous_status: c.status });
    });
  }

  async unarchive(tenantId: string, id: string): Promise<CaptureDto> {
    return await this.change(tenantId, id, async (c, now) => {
      if (c.status !== 'archived') return;
      const restored = c.status_before_archive ?? 'completed';
      await this.repo.setState(tenantId, id, { status: restored, status_before_archive: null, attempts: c.attempts, error: c.error, updated_at: now });
      await this.repo.addEvent(tenantId, id, 'unarchived', now, { restored_status: restored });
    });
  }

  async dismiss(tenantId: string, id: string): Promise<CaptureDto> {
    return await this.change(tenantId, id, async (c, now) => {
      if (c.status === 'dismissed') return;
      await this.repo.setState(tenantId, id, { status: 'dismissed', status_before_archive: null, attempts: c.attempts, error: c.error, updated_at: now });
      await this.repo.addEvent(tenantId, id, 'dismissed', now, { previous_status: c.status });
    });
  }

  async remove(tenantId: string, id: string): Promise<void> {
    if (!await this.repo.delete(tenantId, id)) throw new NotFoundError('Capture');
  }

  async activity(tenantId: string, id: string) {
    await this.row(tenantId, id);
    return { data: (await this.repo.events(tenantId, id)).map((e) => ({ id: String(e.id), kind: e.kind, at: e.at, detail: JSON.parse(e.detail) })) };
  }

  async provenance(tenantId: string, id: string) {
    const c = await this.row(tenantId, id);
    const stages = await this.repo.stages(tenantId, id);
    return {
      capture_id: id,
      run: stages[0]?.run ?? null,
      node_id: c.node_id,
      stages: stages.map((s) => ({ stage: s.stage as never, started_at: s.started_at, finished_at: s.finished_at, model: s.model, output: JSON.parse(s.output) })),
    };
  }

  private async requeue(tenantId: string, c: CaptureRow, now: string, kind: 'retried' | 'reingested', detail: Record<string, unknown>): Promise<void> {
    const run = c.attempts + 1;
    await this.repo.setState(tenantId, c.id, { status: 'pending', status_before_archive: null, attempts: run, error: null, updated_at: now });
    await this.repo.addEvent(tenantId, c.id, kind, now, { ...detail, run });
    const payload: CaptureJobPayload = { capture_id: c.id, run };
    await this.queue.enqueue(tenantId, CAPTURE_JOB, payload, { dedupeKey: `capture:${c.id}:${run}` });
    await this.repo.addEvent(tenantId, c.id, 'queued', now, { run });
  }

  private async change(tenantId: string, id: string, fn: (c: CaptureRow, now: string) => Promise<void>): Promise<CaptureDto> {
    return await this.tx.withTx(async () => {
      await fn(await this.row(tenantId, id), iso(this.clock.now()));
      return toCaptureDto(await this.row(tenantId, id));
    });
  }

  private async row(tenantId: string, id: string): Promise<CaptureRow> {
    const c = await this.repo.get(tenantId, id);
    if (!c) throw new NotFoundError('Capture');
    return c;
  }
}
