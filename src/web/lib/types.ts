// Shapes from interface.md + decisions.md, as the dashboard reads them.
export type NodeStatus = 'raw' | 'validated' | 'dismissed';
export type SearchMode = 'hybrid' | 'keyword' | 'semantic';

export interface KNode {
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

export interface SearchPage {
  data: KNode[];
  total: number;
  total_matches?: number;
  coverage_capped?: boolean;
  page: number;
  per_page: number;
}

export type ParaCategory = 'projects' | 'areas' | 'resources';
export interface ParaItem {
  id: string;
  category: ParaCategory;
  label: string;
  description?: string | null;
  slug: string;
  status: string;
  node_count?: number;
}
export type ParaTree = Record<ParaCategory, ParaItem[]>;

export interface Related {
  id: string;
  title: string;
  summary: string;
  relationship_type: string;
}

export interface Suggestion {
  node_id: string;
  title: string;
  score: number;
}

export type CaptureStatus = 'pending' | 'processing' | 'completed' | 'failed' | 'archived' | 'dismissed';
export interface Capture {
  id: string;
  status: CaptureStatus;
  title: string;
  url?: string | null;
  content_type: string;
  why?: string | null;
  selected_text?: string | null;
  source?: string;
  node_id?: string | null;
  error?: string | null;
  metadata?: Record<string, unknown> | null;
  created_at?: string;
  updated_at?: string;
  processed_at?: string | null;
}
export interface CapturePage {
  data: Capture[];
  total: number;
  page: number;
  per_page: number;
}
export interface Activity {
  id: string;
  kind: string;
  at: string;
  detail?: unknown;
}
export interface ProvenanceStage {
  stage: string;
  started_at: string | null;
  finished_at: string | null;
  model: string | null;
  output: unknown;
}

export interface Health {
  total_nodes: number;
  validated_nodes: number;
  total_captures: number;
  pending_captures: number;
  total_links: number;
  stale_nodes: number;
}

export interface ApiKey {
  id: string;
  name: string;
  created_at: string;
  last_used_at: string | null;
}

export const LINK_TYPES = ['related', 'references', 'referenced_by', 'supports', 'supported_by', 'contradicts', 'part_of', 'has_part', 'derived_from', 'source_of'] as const;
export const CATEGORIES: ParaCategory[] = ['projects', 'areas', 'resources'];
