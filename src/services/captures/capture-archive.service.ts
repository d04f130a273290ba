// The archived copy of every captured page. A background job, queued when a capture
// completes (so archiving never delays the capture itself), turns the fetched page into one
// self-contained HTML file: styles and images inlined through the same SSRF guard, within
// the size cap, scripts removed (ingest/archive/). PDFs and images are their own copy: the
// original bytes kept with the capture. Served under a CSP that lets nothing run or load.
import { iso, type Clock } from '../../clock.js';
import type { Config } from '../../config.js';
import { NotFoundError } from '../../errors.js';
import type { safeFetch } from '../../ingest/fetch.js';
import type { Job, JobHandler, JobQueue } from '../../jobs/queue.js';
import type { Logger } from '../../logger.js';
import type { CaptureSnapshotsRepo } from '../../repos/capture-snapshots.repo.js';
import type { CaptureRow, CapturesRepo } from '../../repos/captures.repo.js';

export const ARCHIVE_JOB = 'capture.archive';

export interface ArchiveDeps {
  config: Pick<Config, 'allowPrivateFetch' | 'archiveMaxBytes'>;
  repo: CapturesRepo;
  snapshots: CaptureSnapshotsRepo;
  queue: Pick<JobQueue, 'enqueue' | 'enqueueInTx'>;
  clock: Clock;
  log: Logger;
  /** Tests: the guarded fetcher's stand-in is never used; this only lets a bench count requests. */
  fetch?: typeof safeFetch;
}

export interface ArchivedCopy {
  mime: string;
  bytes: Uint8Array;
  archived_at: string | null;
  /** 'snapshot': the inlined HTML copy; 'original': a PDF or image kept as it came. */
  kind: 'snapshot' | 'original';
}

const ORIGINAL = /^(application\/pdf|image\/)/;

export class CaptureArchiver {
  constructor(private readonly d: ArchiveDeps) {}

  /** Queued in the completing capture's transaction; one pending archive per capture. */
  async enqueueInTx(tenantId: string, captureId: string): Promise<void> {
    if (this.d.config.archiveMaxBytes <= 0) return;
    await this.d.queue.enqueueInTx(tenantId, ARCHIVE_JOB, { capture_id: captureId }, { dedupeKey: `archive:${captureId}` });
  }

  /** Re-archive on demand: the page is fetched again and a new copy replaces the old one. */
  async rearchive(tenantId: string, captureId: string): Promise<{ capture_id: string; status: 'queued' }> {
    const c = await this.d.repo.get(tenantId, captureId);
    if (!c) throw new NotFoundError('Capture');
    if (!c.url && !c.raw_content) throw new NotFoundError('A page to archive for this capture');
    await this.d.queue.enqueue(tenantId, ARCHIVE_JOB, { capture_id: captureId, refetch: true }, { dedupeKey: `archive:${captureId}` });
    return { capture_id: captureId, status: 'queued' };
  }

  /** The copy: the snapshot, else a PDF or image as it came; 404 when there is none (yet). */
  async copy(tenantId: string, captureId: string): Promise<ArchivedCopy> {
    const c = await this.d.repo.get(tenantId, captureId);
    if (!c) throw new NotFoundError('Capture');
    const snap = await this.d.snapshots.get(tenantId, captureId);
    if (snap) return { mime: snap.mime, bytes: new Uint8Array(snap.bytes), archived_at: snap.archived_at, kind: 'snapshot' };
    const file = await this.d.repo.getFile(tenantId, captureId);
    if (file && ORIGINAL.test(file.mime)) return { mime: file.mime, bytes: new Uint8Array(file.bytes), archived_at: c.processed_at, kind: 'original' };
    throw new NotFoundError('Archived copy of this capture');
  }

  jobHandler(): JobHandler<{ capture_id: string; refetch?: boolean }> {
    return {
      kind: ARCHIVE_JOB,
      maxAttempts: 3,
      run: async (jobs) => {
        for (const j of jobs) await this.archive(j);
      },
    };
  }

  private async archive(job: Job<{ capture_id: string; refetch?: boolean }>): Promise<void> {
    const t = job.tenantId;
    const c = await this.d.repo.get(t, job.payload.capture_id);
    if (!c) return;
    let page;
    try {
      page = job.payload.refetch ? await this.refetch(c) : await this.storedPage(c);
    } catch (e) {
      const { FetchError } = await import('../../ingest/fetch.js');
      if (e instanceof FetchError && e.transient) throw e; // the queue tries again later
      await this.d.repo.addEvent(t, c.id, 'snapshot_failed', iso(this.d.clock.now()), { error: e instanceof Error ? e.message : String(e) });
      return;
    }
    if (!page) return; // nothing HTML to copy: a PDF or image is its own copy, a note has none
    const cap = this.d.config.archiveMaxBytes;
    const at = iso(this.d.clock.now());
    const { buildSnapshot } = await import('../../ingest/archive/snapshot.js'); // its parsers load on first use
    const { resourceFetcher } = await import('../../ingest/archive/resources.js');
    const fetcher = resourceFetcher({ budget: cap - page.html.length, allowPrivate: this.d.config.allowPrivateFetch, fetch: this.d.fetch });
    const html = await buildSnapshot(page.html, page.url, fetcher, { archivedAt: at });
    const bytes = Buffer.from(html, 'utf8');
    const report = fetcher.report();
    if (bytes.length > cap) {
      await this.d.repo.addEvent(t, c.id, 'snapshot_skipped', at, { reason: `the page is larger than the archive size cap (${cap} bytes)` });
      return;
    }
    await this.d.snapshots.put(t, { capture_id: c.id, mime: 'text/html; charset=utf-8', bytes, source_url: page.url, report: JSON.stringify(report), archived_at: at });
    await this.d.repo.addEvent(t, c.id, 'snapshot_kept', at, { byte_size: bytes.length, resources_inlined: report.inlined, resources_skipped: Object.keys(report.skipped).length });
  }

  /** The page as fetched at capture time (or as the browser extension sent it). */
  private async storedPage(c: CaptureRow): Promise<{ html: string; url: string } | null> {
    const meta = JSON.parse(c.metadata) as { final_url?: string };
    const url = meta.final_url ?? c.url ?? '';
    const file = await this.d.repo.getFile(c.tenant_id, c.id);
    if (file && /^text\/html|^application\/xhtml/.test(file.mime)) return { html: file.bytes.toString('utf8'), url };
    if (!file && c.raw_content && /<[a-z!]/i.test(c.raw_content)) return { html: c.raw_content, url };
    return null;
  }

  private async refetch(c: CaptureRow): Promise<{ html: string; url: string } | null> {
    if (!c.url) return this.storedPage(c);
    const { safeFetch } = await import('../../ingest/fetch.js');
    const res = await (this.d.fetch ?? safeFetch)(c.url, { allowPrivate: this.d.config.allowPrivateFetch, maxBytes: this.d.config.archiveMaxBytes });
    if (!/^text\/html|^application\/xhtml/.test(res.contentType)) return null;
    return { html: res.bytes.toString('utf8'), url: res.finalUrl };
  }
}
