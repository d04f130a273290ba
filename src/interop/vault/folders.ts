// What a note's folder says about it. With `paraFromFolders`, the PARA method's top-level
// folders become PARA items:
//   Projects/<Item>/...      → project <Item>      (likewise Areas/, Resources/)
//   Archive/<Item>/...       → resource <Item>, archived
//   Archive/Projects/<Item>/ → project <Item>, archived (likewise Areas, Resources)
// Numbered or singular spellings ("1 Projects", "01 - Project", "4. Archives") count too.
// A note lying directly in a category folder has no item (an orphan). Folders below the
// item, and every folder outside the PARA ones, become tags: one tag per note holding the
// folder path, e.g. "Work/Clients", the nested-tag form vault tools understand.
import type { ParaCategory, ParaRef } from '../types.js';

export interface FolderMeaning {
  tags: string[];
  para: ParaRef | null;
}

type Top = ParaCategory | 'archive';

function topKind(segment: string): Top | null {
  const m = /^\d*[\s._-]*(project|area|resource|archive)s?$/i.exec(segment.trim());
  if (!m) return null;
  const k = m[1].toLowerCase();
  return k === 'archive' ? 'archive' : (`${k}s` as ParaCategory);
}

function folderTag(dirs: string[]): string[] {
  return dirs.length ? [dirs.join('/')] : [];
}

export function folderMeaning(path: string, paraFromFolders: boolean): FolderMeaning {
  const dirs = path.split('/').slice(0, -1).filter(Boolean);
  if (!paraFromFolders || dirs.length === 0) return { tags: folderTag(dirs), para: null };
  const top = topKind(dirs[0]);
  if (!top) return { tags: folderTag(dirs), para: null };
  let category: ParaCategory;
  let rest: string[];
  let status: ParaRef['status'] = 'active';
  if (top === 'archive') {
    status = 'archived';
    const inner = dirs[1] ? topKind(dirs[1]) : null;
    if (inner && inner !== 'archive') (category = inner, rest = dirs.slice(2));
    else (category = 'resources', rest = dirs.slice(1));
  } else {
    category = top;
    rest = dirs.slice(1);
  }
  if (rest.length === 0) return { tags: [], para: null };
  const label = rest[0].trim();
  return { tags: folderTag(rest.slice(1)), para: { category, label, status } };
}
