// Whether a rule's conditions hold for an item (a capture's node, a feed item, an imported
// note), and what its actions would change: pure code, shared by the real run and the dry
// run so that the two cannot differ.
import { normalizeTag } from '../../ingest/tags.js';
import type { RuleActionDto, RuleThenInput, RuleWhenInput } from '../../schemas/rules.js';

export interface ItemFacts {
  title: string;
  url: string | null;
  content_type: string | null;
  feed_id: string | null;
  tags: string[];
}

export interface NodeState {
  tags: string[];
  status: string;
  para_item_ids: string[];
}

const words = (s: string) => new Set((s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []));

/** `*` matches any run of characters; everything else is literal; the whole URL must match. */
export function globToRegExp(pattern: string): RegExp {
  return new RegExp(`^${pattern.split('*').map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`, 'i');
}

function hostOf(url: string | null): string | null {
  if (!url) return null;
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return null;
  }
}

export function matches(when: RuleWhenInput, f: ItemFacts): boolean {
  if (when.feed_id !== undefined && f.feed_id !== when.feed_id) return false;
  if (when.host !== undefined) {
    const h = hostOf(f.url);
    const want = when.host.replace(/^www\./, '');
    if (!h || !(h === want || h.endsWith(`.${want}`))) return false;
  }
  if (when.url_pattern !== undefined && !(f.url && globToRegExp(when.url_pattern).test(f.url))) return false;
  if (when.title_words !== undefined) {
    const have = words(f.title);
    if (!when.title_words.every((w) => [...words(w)].every((x) => have.has(x)))) return false;
  }
  if (when.tag !== undefined && !f.tags.includes(normalizeTag(when.tag))) return false;
  if (when.content_type !== undefined && f.content_type !== when.content_type) return false;
  return true;
}

/**
 * What the actions would change on a node as it is now (nothing already so is listed).
 * `paraActive` says whether the PARA item may still be filed into.
 */
export function plan(then: RuleThenInput, node: NodeState, paraActive: (id: string) => boolean): RuleActionDto[] {
  const out: RuleActionDto[] = [];
  if (then.add_tags) {
    const missing = [...new Set(then.add_tags.map(normalizeTag).filter(Boolean))].filter((t) => !node.tags.includes(t));
    if (missing.length) out.push({ type: 'add_tags', tags: missing });
  }
  if (then.para_item_id && !node.para_item_ids.includes(then.para_item_id) && paraActive(then.para_item_id)) out.push({ type: 'file_para', para_item_id: then.para_item_id });
  if (then.skip) {
    if (node.status !== 'dismissed') out.push({ type: 'skip', from: node.status, to: 'dismissed' });
  } else if (then.status && node.status !== then.status) out.push({ type: 'set_status', from: node.status, to: then.status });
  return out;
}
