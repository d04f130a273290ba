// Reads Rhizome's fields out of a front-matter mapping, in the shapes vault tools write
// them (Obsidian, Logseq, Foam, Jekyll/Hugo-style), and keeps every key it does not use
// so nothing the author wrote is lost.
import { NODE_STATUSES, LINK_TYPES } from '../../schemas/enums.js';
import type { LinkType, NodeStatus } from '../types.js';
import { parseLooseDate } from './dates.js';

export interface FrontMatterFields {
  id?: string;
  title?: string;
  summary?: string;
  tags: string[];
  aliases: string[];
  created?: string;
  /** When what the note describes happened (ISO 8601 UTC). */
  occurred?: string;
  updated?: string;
  status?: NodeStatus;
  /** `para` entries of a Rhizome export: "category/slug" strings. */
  para?: string[];
  /** `links` of a Rhizome export: present (even empty) means the file lists its links itself. */
  links?: Array<{ target: string; type: LinkType }>;
  /** Keys not used above, in their original order. */
  extras: Record<string, unknown>;
  /** What was dropped or not understood, in words. */
  warnings: string[];
}

const CREATED_KEYS = ['created', 'date', 'created_at', 'createdAt', 'date_created', 'creation_date'];
/** When what the note describes happened (Rhizome's export writes `occurred`). */
const OCCURRED_KEYS = ['occurred', 'occurred_at', 'happened', 'event_date'];
const UPDATED_KEYS = ['updated', 'modified', 'updated_at', 'updatedAt', 'last_modified', 'lastmod', 'date_modified'];

/** A tag as its author meant it: no leading '#', no surrounding space, nothing empty. */
export function cleanTag(raw: string): string {
  return raw.trim().replace(/^#+/, '').trim();
}

/** `tags: [a, b]`, `tags: a, b`, `tags: "#a #b"`, `tags: a` and nested lists all work; list items are never split. */
export function readStringList(value: unknown, splitSpaces: boolean): string[] | null {
  if (value === null || value === undefined) return [];
  if (Array.isArray(value)) {
    // In a list each item is one value, spaces and commas included.
    const out: string[] = [];
    for (const v of value) {
      if (Array.isArray(v)) {
        const inner = readStringList(v, splitSpaces);
        if (inner === null) return null;
        out.push(...inner);
      } else if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') {
        if (String(v).trim()) out.push(String(v).trim());
      } else if (v !== null && v !== undefined) return null;
    }
    return out;
  }
  if (typeof value === 'number' || typeof value === 'boolean') return [String(value)];
  if (typeof value !== 'string') return null;
  const parts = value.includes(',') ? value.split(',') : splitSpaces ? value.split(/\s+/) : [value];
  return parts.map((p) => p.trim()).filter(Boolean);
}

function uniq(xs: string[]): string[] {
  const seen = new Set<string>();
  return xs.filter((x) => (seen.has(x.toLowerCase()) ? false : (seen.add(x.toLowerCase()), true)));
}

function readLinks(value: unknown): FrontMatterFields['links'] | null {
  if (!Array.isArray(value)) return null;
  const out: Array<{ target: string; type: LinkType }> = [];
  for (const l of value) {
    if (typeof l !== 'object' || l === null) return null;
    const { target, type } = l as Record<string, unknown>;
    if (typeof target !== 'string' || !target.trim()) return null;
    const t = typeof type === 'string' ? type.trim().toLowerCase() : 'references';
    if (!(LINK_TYPES as readonly string[]).includes(t)) return null;
    out.push({ target: target.trim(), type: t as LinkType });
  }
  return out;
}

export function readFrontMatterFields(data: Record<string, unknown>): FrontMatterFields {
  const f: FrontMatterFields = { tags: [], aliases: [], extras: {}, warnings: [] };
  const used = new Set<string>();
  const keep = (k: string, why: string) => {
    f.warnings.push(`front matter "${k}": ${why}; kept in the body's front matter`);
  };
  for (const [key, value] of Object.entries(data)) {
    const k = key.toLowerCase();
    if (k === 'title' && (typeof value === 'string' || typeof value === 'number') && String(value).trim()) {
      f.title = String(value).trim();
      used.add(key);
    } else if (k === 'summary' && typeof value === 'string') {
      f.summary = value.trim();
      used.add(key);
    } else if (k === 'id' && (typeof value === 'string' || typeof value === 'number')) {
      f.id = String(value);
      used.add(key);
    } else if (k === 'tags' || k === 'tag' || k === 'keywords') {
      const list = readStringList(value, true);
      if (list === null) keep(key, 'not a list of tags');
      else (f.tags.push(...list.map(cleanTag).filter(Boolean)), used.add(key));
    } else if (k === 'aliases' || k === 'alias') {
      const list = readStringList(value, false);
      if (list === null) keep(key, 'not a list of aliases');
      else (f.aliases.push(...list), used.add(key));
    } else if (k === 'status' && typeof value === 'string' && (NODE_STATUSES as readonly string[]).includes(value.trim().toLowerCase())) {
      f.status = value.trim().toLowerCase() as NodeStatus;
      used.add(key);
    } else if (CREATED_KEYS.includes(key) || UPDATED_KEYS.includes(key)) {
      const iso = parseLooseDate(value);
      const isCreated = CREATED_KEYS.includes(key);
      if (!iso) keep(key, 'not a date');
      else if (isCreated ? f.created === undefined : f.updated === undefined) {
        if (isCreated) f.created = iso;
        else f.updated = iso;
        used.add(key);
      }
    } else if (OCCURRED_KEYS.includes(key)) {
      const iso = parseLooseDate(value);
      if (!iso) keep(key, 'not a date');
      else if (f.occurred === undefined) (f.occurred = iso, used.add(key));
    } else if (k === 'para') {
      const list = readStringList(value, false);
      if (list === null) keep(key, 'not a list of PARA items');
      else (f.para = list, used.add(key));
    } else if (k === 'links') {
      const links = readLinks(value);
      if (links === null) keep(key, 'not a list of {target, type} links');
      else (f.links = links, used.add(key));
    }
  }
  for (const [key, value] of Object.entries(data)) if (!used.has(key)) f.extras[key] = value;
  f.tags = uniq(f.tags);
  f.aliases = uniq(f.aliases);
  return f;
}
