// Names in place of ids: a node's title linking to it, a PARA item's name linking to PARA.
// Each id is looked up once per page load; a deleted one says so instead of showing its id.
import { useEffect, useState } from 'preact/hooks';
import { api } from '../lib/api.js';

const cache = new Map<string, Promise<string | null>>();

function lookup(path: string, pick: (d: Record<string, unknown>) => unknown): Promise<string | null> {
  let p = cache.get(path);
  if (!p) {
    p = api.get<Record<string, unknown>>(path).then((d) => String(pick(d) ?? '') || null, () => null);
    cache.set(path, p);
  }
  return p;
}

function useName(path: string, pick: (d: Record<string, unknown>) => unknown, known?: string): string | null | undefined {
  const [name, setName] = useState<string | null | undefined>(known);
  useEffect(() => {
    if (known) return;
    let on = true;
    void lookup(path, pick).then((n) => on && setName(n));
    return () => { on = false; };
  }, [path, known]);
  return name;
}

export function NodeName({ id, title }: { id: string; title?: string }) {
  const name = useName(`/nodes/${encodeURIComponent(id)}`, (d) => d.title, title);
  if (name === null) return <span class="muted">a deleted node</span>;
  return <a href={`#/nodes/${encodeURIComponent(id)}`}>{name ?? 'a node'}</a>;
}

export function ParaName({ id, label }: { id: string; label?: string }) {
  const name = useName(`/para/${encodeURIComponent(id)}`, (d) => d.label, label);
  if (name === null) return <span class="muted">an item no longer in PARA</span>;
  return <a href="#/para">{name ?? 'a PARA item'}</a>;
}

/** Opaque ids (prefixed ULIDs, UUIDs) are never worth showing to a reader. */
export const looksLikeId = (s: string) =>
  /^(ten|key|usr|rt|nod|par|cap|imp)_[0-9a-z]{20,}$/i.test(s) || /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s);
