// PARA items on the command line are named by id, slug or label (case-insensitive).
import type { RhizomeClient } from '../client/client.js';
import type { ParaItem } from '../client/types.js';
import { CliError, EXIT } from './exit-codes.js';

export async function resolvePara(c: RhizomeClient, ref: string, items?: ParaItem[]): Promise<string> {
  const all = items ?? (await c.paraList());
  const want = ref.trim().toLowerCase();
  const byId = all.find((p) => p.id === ref.trim());
  if (byId) return byId.id;
  const bySlug = all.filter((p) => p.slug === want);
  const byLabel = all.filter((p) => p.label.trim().toLowerCase() === want);
  const hits = bySlug.length ? bySlug : byLabel;
  if (hits.length === 1) return hits[0].id;
  if (hits.length > 1) throw new CliError(`"${ref}" names ${hits.length} PARA items: ${hits.map((p) => `${p.id} (${p.category})`).join(', ')}; use the id`, EXIT.usage);
  throw new CliError(`no PARA item with id, slug or label "${ref}"`, EXIT.notFound);
}

export async function resolveParas(c: RhizomeClient, refs: string[] | undefined): Promise<string[] | undefined> {
  if (!refs?.length) return refs;
  const items = await c.paraList();
  return Promise.all(refs.map((r) => resolvePara(c, r, items)));
}
