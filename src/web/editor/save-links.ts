// After a save: the `[[Title]]` references in the content and the captures uploaded from
// the editor become typed links of the node. PATCH /nodes/:id/links replaces the whole set,
// so the node's current links are read first and kept; a target already linked is left as is.
import { api, qs } from '../lib/api.js';
import type { KNode } from '../lib/types.js';
import { wikilinkTitles } from './wikilink-complete.js';

export const LINK_TYPES = ['related', 'references', 'supports', 'supported_by', 'contradicts', 'part_of', 'has_part', 'derived_from', 'source_of', 'referenced_by'] as const;
/** The contract's default type of a link the user makes by naming a node. */
export const DEFAULT_LINK_TYPE = 'related';

interface Link {
  target_id: string;
  type: string;
}

async function resolveTitle(title: string): Promise<string | null> {
  const r = await api.get<{ data: KNode[] }>('/nodes' + qs({ query: title, mode: 'keyword', per_page: 20 }));
  const want = title.toLowerCase();
  return r.data.find((n) => n.title.trim().toLowerCase() === want)?.id ?? null;
}

async function captureNode(id: string, waitMs: number): Promise<string | null> {
  const until = Date.now() + waitMs;
  for (;;) {
    try {
      const c = await api.get<{ status: string; node_id?: string | null }>(`/captures/${encodeURIComponent(id)}`);
      if (c.node_id) return c.node_id;
      if (c.status === 'failed' || c.status === 'dismissed' || Date.now() > until) return null;
    } catch {
      return null;
    }
    await new Promise((r) => setTimeout(r, 500));
  }
}

export interface LinkOutcome {
  added: number;
  unresolved: string[];
  pendingCaptures: string[];
}

/**
 * Runs the linking after a save without holding the page: the toast says what was linked,
 * what could not be, or that the links failed (the node itself is saved either way).
 */
export function linkInBackground(nodeId: string, d: { content: string; picked: Record<string, string>; link_type: string; capture_ids: string[] }, toast: (m: string) => void, done?: () => void): void {
  linkFromContent(nodeId, d.content, d.picked, d.link_type, d.capture_ids, 60_000).then(
    (r) => {
      const parts: string[] = [];
      if (r.added) parts.push(`${r.added} new link${r.added === 1 ? '' : 's'}`);
      if (r.unresolved.length) parts.push(`no node titled ${r.unresolved.map((t) => `“${t}”`).join(', ')}`);
      if (r.pendingCaptures.length) parts.push(`${r.pendingCaptures.length} attachment${r.pendingCaptures.length === 1 ? '' : 's'} not processed yet, so not linked`);
      if (parts.length) toast(`Links: ${parts.join('; ')}`);
      if (r.added) done?.();
    },
    (e: Error & { detail?: string }) => toast(`The node is saved, but its links were not: ${e.detail || e.message}`),
  );
}

export async function linkFromContent(nodeId: string, content: string, picked: Record<string, string>, type: string, captureIds: string[], captureWaitMs = 15_000): Promise<LinkOutcome> {
  const want: Link[] = [];
  const unresolved: string[] = [];
  for (const title of wikilinkTitles(content)) {
    const id = picked[title] ?? (await resolveTitle(title).catch(() => null));
    if (id && id !== nodeId) want.push({ target_id: id, type });
    else if (!id) unresolved.push(title);
  }
  const pendingCaptures: string[] = [];
  for (const cid of captureIds.filter((c) => content.includes(`#/captures/${c}`))) {
    const target = await captureNode(cid, captureWaitMs);
    if (target && target !== nodeId) want.push({ target_id: target, type: 'references' });
    else if (!target) pendingCaptures.push(cid);
  }
  if (!want.length) return { added: 0, unresolved, pendingCaptures };
  const path = `/nodes/${encodeURIComponent(nodeId)}/links`;
  const current = (await api.get<{ links: Link[] }>(path)).links;
  const have = new Set(current.map((l) => l.target_id));
  const fresh = want.filter((l, i) => !have.has(l.target_id) && want.findIndex((w) => w.target_id === l.target_id) === i);
  if (fresh.length) await api.patch(path, { links: [...current, ...fresh] });
  return { added: fresh.length, unresolved, pendingCaptures };
}
