// Plain data shared by the import and export formats. Nothing here touches a database:
// readers turn bytes into these records, writers turn records into bytes.
import type { LINK_TYPES, NODE_STATUSES, PARA_CATEGORIES, PARA_STATUSES } from '../schemas/enums.js';

export type LinkType = (typeof LINK_TYPES)[number];
export type NodeStatus = (typeof NODE_STATUSES)[number];
export type ParaCategory = (typeof PARA_CATEGORIES)[number];
export type ParaStatus = (typeof PARA_STATUSES)[number];

/** One file of an input tree: its path relative to the vault root ('/'-separated) and its bytes. */
export interface VaultFile {
  path: string;
  bytes: Uint8Array;
}

export type ProblemKind =
  | 'malformed_front_matter'
  | 'not_utf8'
  | 'duplicate_title'
  | 'ambiguous_link'
  | 'unresolved_link'
  | 'unresolved_attachment'
  | 'symlink_loop'
  | 'too_large'
  | 'unsafe_path'
  | 'zip_bomb'
  | 'unreadable'
  | 'ignored_value';

/** Something the reader could not take as it was. `path` is vault-relative (or the entry name). */
export interface Problem {
  path: string;
  kind: ProblemKind;
  detail: string;
}

/** A PARA item as the vault names it: category + label (+ the slug when an export recorded one). */
export interface ParaRef {
  category: ParaCategory;
  label: string;
  slug?: string;
  status: ParaStatus;
  description?: string;
}
