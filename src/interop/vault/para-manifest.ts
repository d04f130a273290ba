// `.rhizome/para.yaml`: the PARA items of an exported vault, so a re-import recreates each
// item with its label, description and status, including items no note belongs to. Notes
// name their items as "category/slug" in their `para` front matter.
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { PARA_CATEGORIES, PARA_STATUSES } from '../../schemas/enums.js';
import type { ParaCategory, ParaRef, ParaStatus } from '../types.js';

export const PARA_MANIFEST_PATH = '.rhizome/para.yaml';

export function paraKey(category: string, slug: string): string {
  return `${category}/${slug}`.toLowerCase();
}

export function writeParaManifest(items: ParaRef[]): string {
  const rows = items.map((i) => ({
    category: i.category,
    slug: i.slug,
    label: i.label,
    status: i.status,
    ...(i.description ? { description: i.description } : {}),
  }));
  return `# PARA items of this vault, written by Rhizome's Markdown export.\n${stringifyYaml({ items: rows })}`;
}

/** The manifest's items by "category/slug", or an error in words. */
export function readParaManifest(text: string): { items: Map<string, ParaRef> } | { error: string } {
  let data: unknown;
  try {
    data = parseYaml(text, { maxAliasCount: 100 });
  } catch (e) {
    return { error: `not valid YAML: ${e instanceof Error ? e.message.split('\n')[0] : e}` };
  }
  const rows = (data as { items?: unknown } | null)?.items;
  if (!Array.isArray(rows)) return { error: 'no "items" list' };
  const items = new Map<string, ParaRef>();
  for (const r of rows as Array<Record<string, unknown>>) {
    const category = String(r?.category ?? '') as ParaCategory;
    const slug = String(r?.slug ?? '');
    const label = String(r?.label ?? '').trim();
    const status = String(r?.status ?? 'active') as ParaStatus;
    if (!PARA_CATEGORIES.includes(category) || !slug || !label || !PARA_STATUSES.includes(status)) continue;
    const description = typeof r.description === 'string' ? r.description : undefined;
    items.set(paraKey(category, slug), { category, slug, label, status, ...(description ? { description } : {}) });
  }
  return { items };
}
