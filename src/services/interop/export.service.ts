// Exports a tenant: every node with its links and PARA items, as a Markdown vault (files
// or one zip) or as one JSON document. Reads go through the other features' services.
import type { Readable } from 'node:stream';
import type { Clock } from '../../clock.js';
import { buildJsonExport, type JsonExportDocument } from '../../interop/export/json-export.js';
import type { ExportFile, ExportNode, ExportParaItem } from '../../interop/export/types.js';
import type { LinksService } from '../graph/links.service.js';
import type { SearchService } from '../nodes/search.service.js';
import type { ParaService } from '../para/para.service.js';
import type { CapturesLifecycle } from '../captures/captures-lifecycle.service.js';
import type { HighlightsService } from '../highlights/highlights.service.js';
import type { CaptureArchiver } from '../captures/capture-archive.service.js';

export interface ExportDeps {
  clock: Clock;
  search: Pick<SearchService, 'search'>;
  links: Pick<LinksService, 'list'>;
  para: Pick<ParaService, 'list'>;
  /** Captures: their records (JSON export) and their original files (beside the notes). */
  captures?: Pick<CapturesLifecycle, 'list' | 'content'>;
  /** Each node's highlights (blockquotes under the note; a list in the JSON document). */
  highlights?: Pick<HighlightsService, 'exportRecords'>;
  /** Archived copies of captured pages, written beside their note. */
  archive?: Pick<CaptureArchiver, 'copy'>;
}

/** Uploaded files that are not the note's own text (a Markdown upload *is* the note). */
const KEEP_BESIDE = new Set(['pdf', 'image', 'docx', 'doc', 'html']);

const PAGE = 100;

export class ExportService {
  constructor(private readonly d: ExportDeps) {}

  async graph(tenantId: string): Promise<{ nodes: ExportNode[]; paraItems: ExportParaItem[]; captures: Array<Record<string, unknown>> }> {
    const nodes: ExportNode[] = [];
    for (let page = 1; ; page++) {
      const res = await this.d.search.search(tenantId, { page, per_page: PAGE, mode: 'hybrid' });
      for (const n of res.data) {
        nodes.push({
          id: n.id, title: n.title, summary: n.summary, body_markdown: n.body_markdown, tags: n.tags, status: n.status,
          para_item_ids: n.para_item_ids, created_at: n.created_at, updated_at: n.updated_at, occurred_at: n.occurred_at,
          links: (await this.d.links.list(tenantId, n.id)).links.map((l) => ({ target_id: l.target_id, type: l.type })),
        });
      }
      if (res.data.length < PAGE) break;
    }
    const captures = await this.captureRecords(tenantId);
    const byNode = new Map(nodes.map((n) => [n.id, n]));
    for (let i = 0; this.d.highlights && i < nodes.length; i += PAGE) {
      const marked = await this.d.highlights.exportRecords(tenantId, nodes.slice(i, i + PAGE).map((n) => n.id));
      for (const [id, list] of marked) byNode.get(id)!.highlights = list;
    }
    for (const c of captures) {
      const meta = (c.metadata ?? {}) as Record<string, unknown>;
      const node = typeof c.node_id === 'string' ? byNode.get(c.node_id) : undefined;
      if (node) await this.attachSnapshot(tenantId, String(c.id), node);
      if (!node || meta.origin !== 'upload' || !KEEP_BESIDE.has(String(meta.detected_kind))) continue;
      try {
        const file = await this.d.captures!.content(tenantId, String(c.id), 'raw');
        if (file.body instanceof Uint8Array) (node.attachments ??= []).push({ name: file.filename ?? String(meta.filename ?? 'attachment'), bytes: file.body });
      } catch {
        // The file went with its capture: nothing to put beside the note.
      }
    }
    const paraItems = (await this.d.para.list(tenantId, {})).map((i) => ({
      id: i.id, category: i.category, label: i.label, slug: i.slug, status: i.status, ...(i.description ? { description: i.description } : {}),
    }));
    return { nodes, paraItems, captures };
  }

  /** The page's archived copy (an HTML snapshot) beside its note; PDFs and images go as originals below. */
  private async attachSnapshot(tenantId: string, captureId: string, node: ExportNode): Promise<void> {
    try {
      const copy = await this.d.archive?.copy(tenantId, captureId);
      if (copy?.kind === 'snapshot') (node.attachments ??= []).push({ name: 'archived page.html', bytes: copy.bytes });
    } catch {
      // No copy (yet): nothing to put beside the note.
    }
  }

  private async captureRecords(tenantId: string): Promise<Array<Record<string, unknown>>> {
    if (!this.d.captures) return [];
    const out: Array<Record<string, unknown>> = [];
    for (let page = 1; ; page++) {
      const res = await this.d.captures.list(tenantId, { page, per_page: PAGE });
      out.push(...(res.data as Array<Record<string, unknown>>));
      if (res.data.length < PAGE) return out;
    }
  }

  async markdownFiles(tenantId: string): Promise<ExportFile[]> {
    const { nodes, paraItems } = await this.graph(tenantId);
    // The Markdown and zip writers load on an export's first use, not at start.
    const { writeMarkdownVault } = await import('../../interop/export/markdown-writer.js');
    return writeMarkdownVault(nodes, paraItems).files;
  }

  async markdownZip(tenantId: string): Promise<Readable> {
    const { zipStream } = await import('../../interop/export/zip-writer.js');
    return zipStream(await this.markdownFiles(tenantId), new Date(this.d.clock.now()));
  }

  async json(tenantId: string): Promise<JsonExportDocument> {
    const { nodes, paraItems, captures } = await this.graph(tenantId);
    return buildJsonExport({ nodes, paraItems, captures, exportedAt: new Date(this.d.clock.now()) });
  }
}
