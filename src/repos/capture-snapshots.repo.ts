// Archived copies of captured pages, one per capture. Every statement filters on tenant_id.
import type { Database } from '../db/store/contract.js';

export interface CaptureSnapshotRow {
  capture_id: string;
  mime: string;
  bytes: Buffer;
  source_url: string;
  report: string;
  archived_at: string;
}

export class CaptureSnapshotsRepo {
  private readonly s;

  constructor(db: Database) {
    this.s = {
      put: db.prepare(`INSERT INTO capture_snapshots (capture_id, tenant_id, mime, bytes, source_url, report, archived_at)
        VALUES (@capture_id, @tenant_id, @mime, @bytes, @source_url, @report, @archived_at)
        ON CONFLICT (capture_id) DO UPDATE SET mime = excluded.mime, bytes = excluded.bytes, source_url = excluded.source_url,
          report = excluded.report, archived_at = excluded.archived_at`),
      get: db.prepare('SELECT capture_id, mime, bytes, source_url, report, archived_at FROM capture_snapshots WHERE tenant_id = ? AND capture_id = ?'),
      linked: db.prepare(`SELECT id, url, metadata FROM captures WHERE tenant_id = ? AND url IS NOT NULL AND status != 'dismissed' ORDER BY created_at, id`),
      lastCheck: db.prepare(`SELECT max(json_extract(metadata, '$.source_checked_at')) FROM captures WHERE tenant_id = ? AND url IS NOT NULL`).pluck(),
      hasLinked: db.prepare(`SELECT 1 FROM captures WHERE tenant_id = ? AND url IS NOT NULL AND status != 'dismissed' LIMIT 1`).pluck(),
      info: db.prepare('SELECT capture_id, mime, length(bytes) AS byte_size, archived_at FROM capture_snapshots WHERE tenant_id = ? AND capture_id = ?'),
    };
  }

  async put(tenantId: string, row: CaptureSnapshotRow): Promise<void> {
    await this.s.put.run({ ...row, tenant_id: tenantId });
  }
  async get(tenantId: string, captureId: string): Promise<CaptureSnapshotRow | undefined> {
    return await this.s.get.get(tenantId, captureId) as CaptureSnapshotRow | undefined;
  }
  /** The tenant's captures of a URL (not dismissed), oldest first: what a link check visits. */
  async linkedCaptures(tenantId: string): Promise<Array<{ id: string; url: string; metadata: string }>> {
    return await this.s.linked.all(tenantId) as Array<{ id: string; url: string; metadata: string }>;
  }
  /** When the tenant's links were last checked (the newest check stamp on its captures), if ever. */
  async lastLinkCheck(tenantId: string): Promise<string | null> {
    return (await this.s.lastCheck.get(tenantId) as string | null | undefined) ?? null;
  }
  async hasLinkedCaptures(tenantId: string): Promise<boolean> {
    return await this.s.hasLinked.get(tenantId) !== undefined;
  }
  async info(tenantId: string, captureId: string): Promise<{ capture_id: string; mime: string; byte_size: number; archived_at: string } | undefined> {
    return await this.s.info.get(tenantId, captureId) as { capture_id: string; mime: string; byte_size: number; archived_at: string } | undefined;
  }
}
