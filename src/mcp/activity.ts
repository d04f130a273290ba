// What changed in a period: nodes by updated_at and captures by updated_at, newest first,
// read through the API's own paginated lists (stopping once they go past the period).
import type { RhizomeClient } from '../client/client.js';
import type { Capture, Node } from '../client/types.js';

const MAX_PAGES = 10;

export interface Activity { since: string; nodes: Node[]; captures: Capture[]; truncated: boolean }

export async function recentActivity(client: RhizomeClient, since: Date, limit = 50): Promise<Activity> {
  const iso = since.toISOString();
  const nodes: Node[] = [];
  let truncated = false;
  for (let page = 1; page <= MAX_PAGES; page++) {
    const r = await client.search({ page, per_page: 100 });
    const fresh = r.data.filter((n) => n.updated_at >= iso);
    nodes.push(...fresh);
    if (fresh.length < r.data.length || r.page * r.per_page >= r.total) break;
    if (page === MAX_PAGES) truncated = true;
  }
  // Captures are listed newest created first; an old one may have changed since (a retry).
  const captures: Capture[] = [];
  for (let page = 1; page <= MAX_PAGES; page++) {
    const r = await client.captures({ page, per_page: 100 });
    captures.push(...r.data.filter((c) => c.updated_at >= iso));
    if (r.data.length === 0 || r.data[r.data.length - 1].created_at < iso || page * r.per_page >= r.total) break;
  }
  captures.sort((a, b) => b.updated_at.localeCompare(a.updated_at));
  if (nodes.length > limit || captures.length > limit) truncated = true;
  return { since: iso, nodes: nodes.slice(0, limit), captures: captures.slice(0, limit), truncated };
}

export function activityText(a: Activity): string {
  const lines = [`Activity since ${a.since}: ${a.nodes.length} node(s), ${a.captures.length} capture(s) changed${a.truncated ? ' (more not shown)' : ''}.`];
  if (a.nodes.length) lines.push('', 'Nodes:', ...a.nodes.map((n) => `- ${n.updated_at} ${n.title} [${n.id}]${n.created_at === n.updated_at ? ' (new)' : ''}`));
  if (a.captures.length) lines.push('', 'Captures:', ...a.captures.map((c) => `- ${c.updated_at} ${c.status} ${c.title} [${c.id}]${c.node_id ? ` -> node ${c.node_id}` : ''}`));
  return lines.join('\n');
}

/** `since` (ISO 8601) or the last `days` days (default 7). */
export function periodStart(now: number, o: { since?: string; days?: number }): Date {
  if (o.since) {
    const d = new Date(o.since);
    if (Number.isNaN(d.getTime())) throw new Error(`since is not a date: ${o.since}`);
    return d;
  }
  return new Date(now - (o.days ?? 7) * 86_400_000);
}
