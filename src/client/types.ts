// Shapes of the Rhizome API as the contract (interface.md + decisions.md) describes them.
// Fields the server may add later pass through untouched.
// The enumerations come from the server's own schemas, so client and server never drift.
import { CAPTURE_CONTENT_TYPES } from '../schemas/captures.js';
import { LINK_TYPES } from '../schemas/graph.js';
import { NODE_STATUSES, SEARCH_MODES } from '../schemas/nodes.js';
import { PARA_CATEGORIES } from '../schemas/para.js';

export { LINK_TYPES, NODE_STATUSES, PARA_CATEGORIES, SEARCH_MODES };
export const CONTENT_TYPES = CAPTURE_CONTENT_TYPES;

export type SearchMode = (typeof SEARCH_MODES)[number];
export type NodeStatus = (typeof NODE_STATUSES)[number];
export type ParaCategory = (typeof PARA_CATEGORIES)[number];
export type ContentType = (typeof CAPTURE_CONTENT_TYPES)[number];
export type CaptureSource = 'browser-extension' | 'cli' | 'api' | 'mcp';

export interface Node {
  id: string;
  title: string;
  summary: string;
  body_markdown: string;
  tags: string[];
  para_item_ids: string[];
  status: NodeStatus;
  match_provenance?: { keyword: boolean; semantic: boolean; score: number };
  created_at: string;
  updated_at: string;
}

export interface NodeInput {
  title: string;
  content?: string;
  summary?: string;
  tags?: string[];
  status?: NodeStatus;
  para_item_ids?: string[];
}
export type NodePatch = Partial<NodeInput>;

export interface SearchParams {
  query?: string;
  mode?: SearchMode;
  para_item_id?: string;
  status?: NodeStatus;
  orphan?: boolean;
  page?: number;
  per_page?: number;
}

export interface SearchResult {
  data: Node[];
  total: number;
  total_matches?: number;
  coverage_capped?: boolean;
  page: number;
  per_page: number;
}

export interface Link {
  target_id: string;
  type: string;
}

export interface RelatedNode {
  id: string;
  title: string;
  summary: string;
  relationship_type: string;
}

export interface LinkSuggestion {
  node_id: string;
  title: string;
  score: number;
}

export interface ParaItem {
  id: string;
  category: ParaCategory;
  label: string;
  description?: string | null;
  slug: string;
  status: string;
  node_count?: number;
  [k: string]: unknown;
}

export type ParaTree = Record<ParaCategory, ParaItem[]>;

export interface CaptureInput {
  title: string;
  url?: string;
  content_type: ContentType;
  why?: string;
  selected_text?: string;
  raw_content?: string;
  source: CaptureSource;
}

export interface Capture {
  id: string;
  status: string;
  title?: string;
  url?: string | null;
  content_type?: string;
  why?: string | null;
  source?: string;
  node_id?: string | null;
  error?: string | null;
  metadata?: Record<string, unknown>;
  created_at?: string;
  updated_at?: string;
  processed_at?: string | null;
  [k: string]: unknown;
}

export interface CaptureList {
  data: Capture[];
  total: number;
  page: number;
  per_page: number;
}

export interface ActivityEntry {
  id: string;
  kind: string;
  at: string;
  detail?: unknown;
}

export interface ContextParams {
  query?: string;
  focus_node_ids?: string[];
  mode?: SearchMode;
  limit?: number;
}

export interface ContextNode {
  id: string;
  title: string;
  summary: string;
  score: number;
  reasons: string[];
}

export interface GraphHealth {
  total_nodes: number;
  validated_nodes: number;
  total_captures: number;
  pending_captures: number;
  total_links: number;
  stale_nodes: number;
}

export interface ServerHealth {
  status: 'ok' | 'degraded';
  version: string;
  uptime_s: number;
  embedding: { state: string; model: string; dimension: number; error?: string };
  jobs: { queued: number };
}

export interface ApiKey {
  id: string;
  name: string;
  created_at: string;
  last_used_at: string | null;
}

export interface ApiKeyCreated {
  id: string;
  name: string;
  key: string;
  created_at: string;
}

export interface TokenPair {
  access_token: string;
  refresh_token: string;
  token_type: 'Bearer';
  expires_in: number;
}

export const TERMINAL_CAPTURE_STATUSES = new Set(['completed', 'failed', 'archived', 'dismissed']);
