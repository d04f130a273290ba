// Archived copies of captured pages, one per capture. Every statement filters on tenant_id.
import type { Database } from '../db/store/contract.js';
import { sql } from '../db/store/sql.js';

export interface CaptureSnapshotRow {
  capture_id: string;
  mime: string;
  bytes: Buffer;
  source_url: string;
  report: string;
  archived_at: string;
}

export class CaptureSnapshotsRepo {
  constructor(private readonly db: Database) {}

  async put(tenantId: string, row: CaptureSnapshotRow): Promise<void> {
    await this.db.run(sql`INSERT INTO capture_snapshots (capture_id, tenant_id, mime, bytes, source_url, report, archived_at)
      VALUES (${row.capture_id}, ${tenantId}, ${row.mime}, ${row.bytes}, ${row.source_url}, ${row.report}, ${row.archived_at})
      ON CONFLICT (capture_id) DO UPDATE SET mime = excluded.mime, bytes = excluded.bytes, source_url = excluded.source_url,
        report = excluded.report, archived_at = excluded.archived_at`);
  }
  async get(tenantId: string, captureId: string): Promise<CaptureSnapshotRow | undefined> {
    return await this.db.one(sql<CaptureSnapshotRow>`SELECT capture_id, mime, bytes, source_url, report, archived_at FROM capture_snapshots WHERE tenant_id = ${tenantId} AND capture_id = ${captureId}`);
  }
  /** The tenant's captures of a URL (not dismissed), oldest first: what a link check visits. */
  async linkedCaptures(tenantId: string): Promise<Array<{ id: string; url: string; metadata: string }>> {
    return await this.db.all(sql<{ id: string; url: string; metadata: string }>`SELECT id, url, metadata FROM captures WHERE tenant_id = ${tenantId} AND url IS NOT NULL AND status != 'dismissed' ORDER BY created_at, id`);
  }
  /** When the tenant's links were last checked (the newest check stamp on its captures), if ever. */
  async lastLinkCheck(tenantId: string): Promise<string | null> {
    return (
      (await this.db.value<string | null>(
        this.db.engine === 'postgres'
          ? sql`SELECT max(metadata::json ->> 'source_checked_at') FROM captures WHERE tenant_id = ${tenantId} AND url IS NOT NULL`
          : sql`SELECT max(json_extract(metadata, '$.source_checked_at')) FROM captures WHERE tenant_id = ${tenantId} AND url IS NOT NULL`,
      )) ?? null
    );
  }
  async hasLinkedCaptures(tenantId: string): Promise<boolean> {
    return (await this.db.value(sql`SELECT 1 FROM captures WHERE tenant_id = ${tenantId} AND url IS NOT NULL AND status != 'dismissed' LIMIT 1`)) !== undefined;
  }
  async info(tenantId: string, captureId: string): Promise<{ capture_id: string; mime: string; byte_size: number; archived_at: string } | undefined> {
    return await this.db.one(
      sql<{ capture_id: string; mime: string; byte_size: number; archived_at: string }>`SELECT capture_id, mime, length(bytes) AS byte_size, archived_at FROM capture_snapshots WHERE tenant_id = ${tenantId} AND capture_id = ${captureId}`,
    );
  }
}
