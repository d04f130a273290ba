// What the exporters take: a tenant's nodes and PARA items as plain records, as the API
// returns them, plus each node's links and any original files.
import type { HighlightRecord } from '../highlights/types.js';
import type { LinkType, NodeStatus, ParaCategory, ParaStatus } from '../types.js';

export interface ExportNode {
  id: string;
  title: string;
  summary?: string;
  body_markdown: string;
  tags: string[];
  status: NodeStatus;
  para_item_ids: string[];
  created_at: string;
  updated_at: string;
  /** When what the note describes happened; null/absent when not said. */
  occurred_at?: string | null;
  links: Array<{ target_id: string; type: LinkType }>;
  /** Original files (a captured PDF, an embedded image...) written beside the note. */
  attachments?: Array<{ name: string; bytes: Uint8Array }>;
  /** The node's highlights (absent when it has none). */
  highlights?: HighlightRecord[];
}

export interface ExportParaItem {
  id: string;
  category: ParaCategory;
  label: string;
  slug: string;
  status: ParaStatus;
  description?: string;
}

export interface ExportFile {
  path: string;
  bytes: Uint8Array;
}
