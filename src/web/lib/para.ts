// PARA items are needed on several pages (labels for chips, filters, assignment); one
// shared, refreshable cache keeps them consistent.
import { useEffect, useState } from 'preact/hooks';
import type { ApiError } from './api.js';
import { api } from './api.js';
import { asApiError } from './hooks.js';
import type { ParaItem } from './types.js';

let cache: ParaItem[] | null = null;
let error: ApiError | null = null;
let pending: Promise<void> | null = null;
const subs = new Set<() => void>();

export function listOf<T>(res: unknown): T[] {
  if (Array.isArray(res)) return res as T[];
  const r = res as { data?: unknown; items?: unknown };
  if (Array.isArray(r?.data)) return r.data as T[];
  if (Array.isArray(r?.items)) return r.items as T[];
  return [];
}

export function refreshPara(): Promise<void> {
  pending ??= api
    .get<unknown>('/para')
    .then(
      (res) => {
        cache = listOf<ParaItem>(res);
        error = null;
      },
      (e) => {
        error = asApiError(e);
      },
    )
    .finally(() => {
      pending = null;
      subs.forEach((f) => f());
    });
  return pending;
}

export function useParaItems(): { items: ParaItem[]; error: ApiError | null; byId: Map<string, ParaItem> } {
  const [, force] = useState(0);
  useEffect(() => {
    const f = () => force((n) => n + 1);
    subs.add(f);
    if (!cache && !pending) void refreshPara();
    return () => void subs.delete(f);
  }, []);
  const items = cache ?? [];
  return { items, error, byId: new Map(items.map((i) => [i.id, i])) };
}
