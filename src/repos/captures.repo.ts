// Captures, their stored bytes, their activity timeline and their per-stage provenance.
// Every statement filters on tenant_id.
import type { Database } from '../db/store/contract.js';

export type CaptureStatus = 'pending' | 'processing' | 'completed' | 'failed' | 'archived' | 'dismissed';

export interface CaptureRow {
  id: string;
  tenant_id: string;
  status: CaptureStatus;
  status_before_archive: CaptureStatus | null;
  title: string;
  url: string | null;
  url_normalized: string | null;
  content_type: string;
  why: string | null;
  selected_text: string | null;
  raw_content: string | null;
  source: string;
  node_id: string | null;
  error: string | null;
  metadata: string;
  markdown: string | null;
  /** The pipeline run in force: 1 at creation, +1 on each retry or reingest. */
  attempts: number;
  created_at: string;
  updated_at: string;
  processed_at: string | null;
}

export interface CaptureFileRow {
  capture_id: string;
  filename: string;
  mime: string;
  bytes: Buffer;
}

export type CaptureImageKind = 'image' | 'favicon';

export interface CaptureImageRow {
  mime: string;
  bytes: Buffer;
}

export interface CaptureEventRow {
  id: number;
  kind: string;
  at: string;
  detail: string;
}

export interface CaptureStageRow {
  id: number;
  run: number;
  stage: string;
  started_at: string;
  finished_at: string | null;
  model: string | null;
  output: string;
}

/** Columns for reads that do not need the big text columns. */
const LIGHT = `id, tenant_id, status, status_before_archive, title, url, url_normalized, content_type, why, selected_text,
  NULL AS raw_content, source, node_id, error, metadata, NULL AS markdown, attempts, created_at, updated_at, processed_at`;

export class CapturesRepo {
  private readonly s;

  constructor(db: Database) {
    this.s = {
      insert: db.prepare(`INSERT INTO captures (id, tenant_id, status, title, url, url_normalized, content_type, why, selected_text,
          raw_content, source, metadata, attempts, node_id, created_at, updated_at)
        VALUES (@id, @tenant_id, @status, @title, @url, @url_normalized, @content_type, @why, @selected_text,
          @raw_content, @source, @metadata, @attempts, @node_id, @created_at, @updated_at)`),
      // The node an identical file already became: by an earlier upload, or by a vault import.
      nodeForContent: db.prepare(`SELECT node_id FROM (
          SELECT c.node_id, c.created_at AS at FROM captures c JOIN nodes n ON n.id = c.node_id AND n.tenant_id = c.tenant_id
            WHERE c.tenant_id = @tenant_id AND json_extract(c.metadata, '$.content_sha256') = @hash
          UNION ALL
          SELECT k.node_id, k.updated_at AS at FROM import_keys k JOIN nodes n ON n.id = k.node_id AND n.tenant_id = k.tenant_id
            WHERE k.tenant_id = @tenant_id AND k.content_hash = @hash
        ) AS found ORDER BY at DESC LIMIT 1`).pluck(),
      get: db.prepare('SELECT * FROM captures WHERE tenant_id = ? AND id = ?'),
      byUrl: db.prepare(`SELECT ${LIGHT} FROM captures WHERE tenant_id = ? AND url_normalized = ? ORDER BY created_at DESC, id DESC LIMIT 1`),
      list: db.prepare(`SELECT ${LIGHT} FROM captures WHERE tenant_id = ? ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`),
      listByNode: db.prepare(`SELECT ${LIGHT} FROM captures WHERE tenant_id = ? AND node_id = ? ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`),
      countByNode: db.prepare('SELECT count(*) FROM captures WHERE tenant_id = ? AND node_id = ?').pluck(),
      listByStatus: db.prepare(`SELECT ${LIGHT} FROM captures WHERE tenant_id = ? AND status = ? ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`),
      count: db.prepare('SELECT count(*) FROM captures WHERE tenant_id = ?').pluck(),
      countByStatus: db.prepare('SELECT count(*) FROM captures WHERE tenant_id = ? AND status = ?').pluck(),
      setState: db.prepare(`UPDATE captures SET status = @status, status_before_archive = @status_before_archive, attempts = @attempts,
          error = @error, updated_at = @updated_at WHERE tenant_id = @tenant_id AND id = @id`),
      setMetadata: db.prepare('UPDATE captures SET metadata = ?, updated_at = ? WHERE tenant_id = ? AND id = ?'),
      setNode: db.prepare('UPDATE captures SET node_id = ?, updated_at = ? WHERE tenant_id = ? AND id = ?'),
      complete: db.prepare(`UPDATE captures SET status = @status, status_before_archive = @status_before_archive, node_id = @node_id,
          markdown = @markdown, metadata = @metadata, error = NULL, processed_at = @processed_at, updated_at = @processed_at
        WHERE tenant_id = @tenant_id AND id = @id`),
      delete: db.prepare('DELETE FROM captures WHERE tenant_id = ? AND id = ?'),
      putFile: db.prepare(`INSERT INTO capture_files (capture_id, tenant_id, filename, mime, bytes) VALUES (?, ?, ?, ?, ?)
        ON CONFLICT(capture_id) DO UPDATE SET filename = excluded.filename, mime = excluded.mime, bytes = excluded.bytes`),
      getFile: db.prepare('SELECT capture_id, filename, mime, bytes FROM capture_files WHERE tenant_id = ? AND capture_id = ?'),
      clearImages: db.prepare('DELETE FROM capture_images WHERE tenant_id = ? AND capture_id = ?'),
      // An upsert both engines speak (INSERT OR REPLACE is SQLite's alone).
      putImage: db.prepare(`INSERT INTO capture_images (capture_id, tenant_id, kind, mime, bytes) VALUES (?, ?, ?, ?, ?)
        ON CONFLICT (capture_id, kind) DO UPDATE SET tenant_id = excluded.tenant_id, mime = excluded.mime, bytes = excluded.bytes`),
      getImage: db.prepare('SELECT mime, bytes FROM capture_images WHERE tenant_id = ? AND capture_id = ? AND kind = ?'),
      addEvent: db.prepare('INSERT INTO capture_events (tenant_id, capture_id, kind, at, detail) VALUES (?, ?, ?, ?, ?)'),
      events: db.prepare('SELECT id, kind, at, detail FROM capture_events WHERE tenant_id = ? AND capture_id = ? ORDER BY id'),
      addStage: db.prepare(`INSERT INTO capture_stages (tenant_id, capture_id, run, stage, started_at, finished_at, model, output)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?)`),
      clearRun: db.prepare('DELETE FROM capture_stages WHERE tenant_id = ? AND capture_id = ? AND run = ?'),
      stages: db.prepare(`SELECT id, run, stage, started_at, finished_at, model, output FROM capture_stages
        WHERE tenant_id = ? AND capture_id = ? AND run = (SELECT max(run) FROM capture_stages WHERE tenant_id = ? AND capture_id = ?) ORDER BY id`),
      // Read-only look at the tenant's tag vocabulary, so new captures reuse existing tags.
      tags: db.prepare(`SELECT t.value AS tag, count(*) AS n FROM nodes, json_each(nodes.tags) AS t
        WHERE nodes.tenant_id = ? GROUP BY t.value ORDER BY n DESC LIMIT ?`),
    };
  }

  async insert(row: Pick<CaptureRow, 'id' | 'tenant_id' | 'status' | 'title' | 'url' | 'url_normalized' | 'content_type' | 'why' | 'selected_text' | 'raw_content' | 'source' | 'metadata' | 'attempts' | 'created_at' | 'updated_at'> & { node_id?: string | null }): Promise<void> {
    await this.s.insert.run({ ...row, node_id: row.node_id ?? null });
  }
  /** The node a file with this content hash already became (an upload or an import), if it still exists. */
  async nodeForContent(tenantId: string, hash: string): Promise<string | undefined> {
    return await this.s.nodeForContent.get({ tenant_id: tenantId, hash }) as string | undefined;
  }
  async get(tenantId: string, id: string): Promise<CaptureRow | undefined> {
    return await this.s.get.get(tenantId, id) as CaptureRow | undefined;
  }
  async latestByUrl(tenantId: string, urlNormalized: string): Promise<CaptureRow | undefined> {
    return await this.s.byUrl.get(tenantId, urlNormalized) as CaptureRow | undefined;
  }
  async list(tenantId: string, status: CaptureStatus | undefined, limit: number, offset: number): Promise<{ rows: CaptureRow[]; total: number }> {
    const rows = (status ? await this.s.listByStatus.all(tenantId, status, limit, offset) : await this.s.list.all(tenantId, limit, offset)) as CaptureRow[];
    const total = (status ? await this.s.countByStatus.get(tenantId, status) : await this.s.count.get(tenantId)) as number;
    return { rows, total };
  }
  /** The captures that became (or stand for) one node, newest first. */
  async listByNode(tenantId: string, nodeId: string, limit: number, offset: number): Promise<{ rows: CaptureRow[]; total: number }> {
    return { rows: await this.s.listByNode.all(tenantId, nodeId, limit, offset) as CaptureRow[], total: await this.s.countByNode.get(tenantId, nodeId) as number };
  }
  async setState(tenantId: string, id: string, st: Pick<CaptureRow, 'status' | 'status_before_archive' | 'attempts' | 'error' | 'updated_at'>): Promise<void> {
    await this.s.setState.run({ ...st, tenant_id: tenantId, id });
  }
  async setMetadata(tenantId: string, id: string, metadata: string, at: string): Promise<void> {
    await this.s.setMetadata.run(metadata, at, tenantId, id);
  }
  /** The node a capture stands for before it completes (a bookmark for a page not fetched yet). */
  async setNode(tenantId: string, id: string, nodeId: string, at: string): Promise<void> {
    await this.s.setNode.run(nodeId, at, tenantId, id);
  }
  async complete(tenantId: string, id: string, r: Pick<CaptureRow, 'status' | 'status_before_archive' | 'node_id' | 'markdown' | 'metadata' | 'processed_at'>): Promise<void> {
    await this.s.complete.run({ ...r, tenant_id: tenantId, id });
  }
  async delete(tenantId: string, id: string): Promise<boolean> {
    return (await this.s.delete.run(tenantId, id)).changes === 1;
  }
  async putFile(tenantId: string, captureId: string, filename: string, mime: string, bytes: Uint8Array): Promise<void> {
    await this.s.putFile.run(captureId, tenantId, filename, mime, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  }
  async getFile(tenantId: string, captureId: string): Promise<CaptureFileRow | undefined> {
    return await this.s.getFile.get(tenantId, captureId) as CaptureFileRow | undefined;
  }
  /** Replaces the capture's kept pictures (a reingest keeps only what the page offers now). */
  async replaceImages(tenantId: string, captureId: string, images: Array<{ kind: CaptureImageKind; mime: string; bytes: Uint8Array }>): Promise<void> {
    await this.s.clearImages.run(tenantId, captureId);
    for (const i of images) await this.s.putImage.run(captureId, tenantId, i.kind, i.mime, Buffer.from(i.bytes.buffer, i.bytes.byteOffset, i.bytes.byteLength));
  }
  async getImage(tenantId: string, captureId: string, kind: CaptureImageKind): Promise<CaptureImageRow | undefined> {
    return await this.s.getImage.get(tenantId, captureId, kind) as CaptureImageRow | undefined;
  }
  async addEvent(tenantId: string, captureId: string, kind: string, at: string, detail: Record<string, unknown> = {}): Promise<void> {
    await this.s.addEvent.run(tenantId, captureId, kind, at, JSON.stringify(detail));
  }
  async events(tenantId: string, captureId: string): Promise<CaptureEventRow[]> {
    return await this.s.events.all(tenantId, captureId) as CaptureEventRow[];
  }
  async addStage(tenantId: string, captureId: string, st: Omit<CaptureStageRow, 'id'>): Promise<void> {
    await this.s.addStage.run(tenantId, captureId, st.run, st.stage, st.started_at, st.finished_at, st.model, st.output);
  }
  async clearRun(tenantId: string, captureId: string, run: number): Promise<void> {
    await this.s.clearRun.run(tenantId, captureId, run);
  }
  /** Stages of the latest run. */
  async stages(tenantId: string, captureId: string): Promise<CaptureStageRow[]> {
    return await this.s.stages.all(tenantId, captureId, tenantId, captureId) as CaptureStageRow[];
  }
  async tenantTags(tenantId: string, limit = 500): Promise<string[]> {
    return (await this.s.tags.all(tenantId, limit) as { tag: string }[]).map((r) => r.tag);
  }
}
