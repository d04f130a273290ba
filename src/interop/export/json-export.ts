// `rhizome export json`: the whole tenant as one document, for machines. Versioned so a
// later reader can tell what it holds.
import type { ExportNode, ExportParaItem } from './types.js';

export const JSON_EXPORT_FORMAT = 'rhizome-export';
export const JSON_EXPORT_VERSION = 1;

export interface JsonExportDocument {
  format: typeof JSON_EXPORT_FORMAT;
  version: typeof JSON_EXPORT_VERSION;
  exported_at: string;
  counts: { nodes: number; links: number; para_items: number; captures: number };
  para_items: ExportParaItem[];
  nodes: Array<Omit<ExportNode, 'attachments'>>;
  /** Capture records as the API returns them (no file contents). */
  captures: Array<Record<string, unknown>>;
}

export function buildJsonExport(input: { nodes: ExportNode[]; paraItems: ExportParaItem[]; captures?: Array<Record<string, unknown>>; exportedAt: Date }): JsonExportDocument {
  const nodes = input.nodes.map(({ attachments: _a, ...n }) => n);
  const captures = input.captures ?? [];
  return {
    format: JSON_EXPORT_FORMAT,
    version: JSON_EXPORT_VERSION,
    exported_at: input.exportedAt.toISOString(),
    counts: { nodes: nodes.length, links: nodes.reduce((s, n) => s + n.links.length, 0), para_items: input.paraItems.length, captures: captures.length },
    para_items: input.paraItems,
    nodes,
    captures,
  };
}
