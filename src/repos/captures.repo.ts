// Captures, their stored bytes, their activity timeline and their per-stage provenance.
// Every statement filters on tenant_id.
import type { Database } from '../db/store/contract.js';
import { sql } from '../db/store/sql.js';

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
const LIGHT = sql.raw(`id, tenant_id, status, status_before_archive, title, url, url_normalized, content_type, why, selected_text,
  NULL AS raw_content, source, node_id, error, metadata, NULL AS markdown, attempts, created_at, updated_at, processed_at`);

/** Bytes as a Buffer over the same memory (both drivers bind a Buffer as a blob / bytea). */
function buffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

export class CapturesRepo {
  constructor(private readonly db: Database) {}

  async insert(row: Pick<CaptureRow, 'id' | 'tenant_id' | 'status' | 'title' | 'url' | 'url_normalized' | 'content_type' | 'why' | 'selected_text' | 'raw_content' | 'source' | 'metadata' | 'attempts' | 'created_at' | 'updated_at'> & { node_id?: string | null }): Promise<void> {
    await this.db.run(sql`INSERT INTO captures (id, tenant_id, status, title, url, url_normalized, content_type, why, selected_text,
        raw_content, source, metadata, attempts, node_id, created_at, updated_at)
      VALUES (${row.id}, ${row.tenant_id}, ${row.status}, ${row.title}, ${row.url}, ${row.url_normalized}, ${row.content_type}, ${row.why}, ${row.selected_text},
        ${row.raw_content}, ${row.source}, ${row.metadata}, ${row.attempts}, ${row.node_id ?? null}, ${row.created_at}, ${row.updated_at})`);
  }
  /** The node a file with this content hash already became (an upload or an import), if it still exists. */
  async nodeForContent(tenantId: string, hash: string): Promise<string | undefined> {
    // The metadata's content hash: SQLite's json_extract, PostgreSQL's ->> on the text as json.
    const sha = this.db.engine === 'postgres' ? sql`(c.metadata::json ->> 'content_sha256')` : sql`json_extract(c.metadata, '$.content_sha256')`;
    return await this.db.value<string>(sql`SELECT node_id FROM (
        SELECT c.node_id, c.created_at AS at FROM captures c JOIN nodes n ON n.id = c.node_id AND n.tenant_id = c.tenant_id
          WHERE c.tenant_id = ${tenantId} AND ${sha} = ${hash}
        UNION ALL
        SELECT k.node_id, k.updated_at AS at FROM import_keys k JOIN nodes n ON n.id = k.node_id AND n.tenant_id = k.tenant_id
          WHERE k.tenant_id = ${tenantId} AND k.content_hash = ${hash}
      ) AS found ORDER BY at DESC LIMIT 1`);
  }
  async get(tenantId: string, id: string): Promise<CaptureRow | undefined> {
    return await this.db.one(sql<CaptureRow>`SELECT * FROM captures WHERE tenant_id = ${tenantId} AND id = ${id}`);
  }
  async latestByUrl(tenantId: string, urlNormalized: string): Promise<CaptureRow | undefined> {
    return await this.db.one(sql<CaptureRow>`SELECT ${LIGHT} FROM captures WHERE tenant_id = ${tenantId} AND url_normalized = ${urlNormalized} ORDER BY created_at DESC, id DESC LIMIT 1`);
  }
  async list(tenantId: string, status: CaptureStatus | undefined, limit: number, offset: number): Promise<{ rows: CaptureRow[]; total: number }> {
    const rows = status
      ? await this.db.all(sql<CaptureRow>`SELECT ${LIGHT} FROM captures WHERE tenant_id = ${tenantId} AND status = ${status} ORDER BY created_at DESC, id DESC LIMIT ${limit} OFFSET ${offset}`)
      : await this.db.all(sql<CaptureRow>`SELECT ${LIGHT} FROM captures WHERE tenant_id = ${tenantId} ORDER BY created_at DESC, id DESC LIMIT ${limit} OFFSET ${offset}`);
    const total = status
      ? await this.db.value<number>(sql`SELECT count(*) FROM captures WHERE tenant_id = ${tenantId} AND status = ${status}`)
      : await this.db.value<number>(sql`SELECT count(*) FROM captures WHERE tenant_id = ${tenantId}`);
    return { rows, total: total as number };
  }
  /** The captures that became (or stand for) one node, newest first. */
  async listByNode(tenantId: string, nodeId: string, limit: number, offset: number): Promise<{ rows: CaptureRow[]; total: number }> {
    return {
      rows: await this.db.all(sql<CaptureRow>`SELECT ${LIGHT} FROM captures WHERE tenant_id = ${tenantId} AND node_id = ${nodeId} ORDER BY created_at DESC, id DESC LIMIT ${limit} OFFSET ${offset}`),
      total: (await this.db.value<number>(sql`SELECT count(*) FROM captures WHERE tenant_id = ${tenantId} AND node_id = ${nodeId}`)) as number,
    };
  }
  async setState(tenantId: string, id: string, st: Pick<CaptureRow, 'status' | 'status_before_archive' | 'attempts' | 'error' | 'updated_at'>): Promise<void> {
    await this.db.run(sql`UPDATE captures SET status = ${st.status}, status_before_archive = ${st.status_before_archive}, attempts = ${st.attempts},
        error = ${st.error}, updated_at = ${st.updated_at} WHERE tenant_id = ${tenantId} AND id = ${id}`);
  }
  async setMetadata(tenantId: string, id: string, metadata: string, at: string): Promise<void> {
    await this.db.run(sql`UPDATE captures SET metadata = ${metadata}, updated_at = ${at} WHERE tenant_id = ${tenantId} AND id = ${id}`);
  }
  /** The node a capture stands for before it completes (a bookmark for a page not fetched yet). */
  async setNode(tenantId: string, id: string, nodeId: string, at: string): Promise<void> {
    await this.db.run(sql`UPDATE captures SET node_id = ${nodeId}, updated_at = ${at} WHERE tenant_id = ${tenantId} AND id = ${id}`);
  }
  async complete(tenantId: string, id: string, r: Pick<CaptureRow, 'status' | 'status_before_archive' | 'node_id' | 'markdown' | 'metadata' | 'processed_at'>): Promise<void> {
    await this.db.run(sql`UPDATE captures SET status = ${r.status}, status_before_archive = ${r.status_before_archive}, node_id = ${r.node_id},
        markdown = ${r.markdown}, metadata = ${r.metadata}, error = NULL, processed_at = ${r.processed_at}, updated_at = ${r.processed_at}
      WHERE tenant_id = ${tenantId} AND id = ${id}`);
  }
  async delete(tenantId: string, id: string): Promise<boolean> {
    return (await this.db.run(sql`DELETE FROM captures WHERE tenant_id = ${tenantId} AND id = ${id}`)).changes === 1;
  }
  async putFile(tenantId: string, captureId: string, filename: string, mime: string, bytes: Uint8Array): Promise<void> {
    await this.db.run(sql`INSERT INTO capture_files (capture_id, tenant_id, filename, mime, bytes) VALUES (${captureId}, ${tenantId}, ${filename}, ${mime}, ${buffer(bytes)})
      ON CONFLICT (capture_id) DO UPDATE SET filename = excluded.filename, mime = excluded.mime, bytes = excluded.bytes`);
  }
  async getFile(tenantId: string, captureId: string): Promise<CaptureFileRow | undefined> {
    return await this.db.one(sql<CaptureFileRow>`SELECT capture_id, filename, mime, bytes FROM capture_files WHERE tenant_id = ${tenantId} AND capture_id = ${captureId}`);
  }
  /** Replaces the capture's kept pictures (a reingest keeps only what the page offers now). */
  async replaceImages(tenantId: string, captureId: string, images: Array<{ kind: CaptureImageKind; mime: string; bytes: Uint8Array }>): Promise<void> {
    await this.db.run(sql`DELETE FROM capture_images WHERE tenant_id = ${tenantId} AND capture_id = ${captureId}`);
    // An upsert both engines speak (INSERT OR REPLACE is SQLite's alone).
    for (const i of images) {
      await this.db.run(sql`INSERT INTO capture_images (capture_id, tenant_id, kind, mime, bytes) VALUES (${captureId}, ${tenantId}, ${i.kind}, ${i.mime}, ${buffer(i.bytes)})
        ON CONFLICT (capture_id, kind) DO UPDATE SET tenant_id = excluded.tenant_id, mime = excluded.mime, bytes = excluded.bytes`);
    }
  }
  async getImage(tenantId: string, captureId: string, kind: CaptureImageKind): Promise<CaptureImageRow | undefined> {
    return await this.db.one(sql<CaptureImageRow>`SELECT mime, bytes FROM capture_images WHERE tenant_id = ${tenantId} AND capture_id = ${captureId} AND kind = ${kind}`);
  }
  async addEvent(tenantId: string, captureId: string, kind: string, at: string, detail: Record<string, unknown> = {}): Promise<void> {
    await this.db.run(sql`INSERT INTO capture_events (tenant_id, capture_id, kind, at, detail) VALUES (${tenantId}, ${captureId}, ${kind}, ${at}, ${JSON.stringify(detail)})`);
  }
  async events(tenantId: string, captureId: string): Promise<CaptureEventRow[]> {
    return await this.db.all(sql<CaptureEventRow>`SELECT id, kind, at, detail FROM capture_events WHERE tenant_id = ${tenantId} AND capture_id = ${captureId} ORDER BY id`);
  }
  async addStage(tenantId: string, captureId: string, st: Omit<CaptureStageRow, 'id'>): Promise<void> {
    await this.db.run(sql`INSERT INTO capture_stages (tenant_id, capture_id, run, stage, started_at, finished_at, model, output)
      VALUES (${tenantId}, ${captureId}, ${st.run}, ${st.stage}, ${st.started_at}, ${st.finished_at}, ${st.model}, ${st.output})`);
  }
  async clearRun(tenantId: string, captureId: string, run: number): Promise<void> {
    await this.db.run(sql`DELETE FROM capture_stages WHERE tenant_id = ${tenantId} AND capture_id = ${captureId} AND run = ${run}`);
  }
  /** Stages of the latest run. */
  async stages(tenantId: string, captureId: string): Promise<CaptureStageRow[]> {
    return await this.db.all(sql<CaptureStageRow>`SELECT id, run, stage, started_at, finished_at, model, output FROM capture_stages
      WHERE tenant_id = ${tenantId} AND capture_id = ${captureId} AND run = (SELECT max(run) FROM capture_stages WHERE tenant_id = ${tenantId} AND capture_id = ${captureId}) ORDER BY id`);
  }
  /** Read-only look at the tenant's tag vocabulary, so new captures reuse existing tags. */
  async tenantTags(tenantId: string, limit = 500): Promise<string[]> {
    const rows = await this.db.all(
      this.db.engine === 'postgres'
        ? sql<{ tag: string }>`SELECT t.value AS tag, count(*) AS n FROM nodes, json_array_elements_text(nodes.tags::json) AS t(value)
            WHERE nodes.tenant_id = ${tenantId} GROUP BY t.value ORDER BY n DESC LIMIT ${limit}`
        : sql<{ tag: string }>`SELECT t.value AS tag, count(*) AS n FROM nodes, json_each(nodes.tags) AS t
            WHERE nodes.tenant_id = ${tenantId} GROUP BY t.value ORDER BY n DESC LIMIT ${limit}`,
    );
    return rows.map((r) => r.tag);
  }
}
