// Finds what a link names inside the vault. A link may name a note by its vault path,
// its file name, its title or one of its aliases (compared case-insensitively, with or
// without the `.md` extension), and an attachment by its path or file name. The most
// specific kind of match wins; two candidates of the same kind are ambiguous unless one
// sits in the linking note's own folder (what Obsidian does too).
import { posix } from 'node:path';

export interface NoteEntry {
  path: string;
  title: string;
  aliases: string[];
}

export type Resolution =
  | { kind: 'note'; path: string }
  | { kind: 'attachment'; path: string }
  | { kind: 'ambiguous'; candidates: string[] }
  | { kind: 'missing' };

const NOTE_EXT = /\.(md|markdown)$/i;

function key(s: string): string {
  return s.normalize('NFC').trim().toLowerCase();
}

function add(map: Map<string, string[]>, k: string, path: string): void {
  const list = map.get(k);
  if (!list) map.set(k, [path]);
  else if (!list.includes(path)) list.push(path);
}

export class VaultIndex {
  private readonly byPath = new Map<string, string[]>();
  private readonly byName = new Map<string, string[]>();
  private readonly byTitle = new Map<string, string[]>();
  private readonly byAlias = new Map<string, string[]>();
  private readonly files = new Map<string, string[]>();
  private readonly fileNames = new Map<string, string[]>();

  constructor(notes: NoteEntry[], attachments: string[]) {
    for (const n of notes) {
      add(this.byPath, key(n.path.replace(NOTE_EXT, '')), n.path);
      add(this.byName, key(posix.basename(n.path).replace(NOTE_EXT, '')), n.path);
      add(this.byTitle, key(n.title), n.path);
      for (const a of n.aliases) add(this.byAlias, key(a), n.path);
    }
    for (const a of attachments) {
      add(this.files, key(a), a);
      add(this.fileNames, key(posix.basename(a)), a);
    }
  }

  private pick(found: string[] | undefined, fromDir: string): string[] | string | null {
    if (!found || found.length === 0) return null;
    if (found.length === 1) return found[0];
    const near = found.filter((p) => posix.dirname(p) === fromDir);
    return near.length === 1 ? near[0] : found;
  }

  /** Resolves a link written in the note at `fromPath`. */
  resolve(target: string, fromPath: string, syntax: 'wiki' | 'markdown'): Resolution {
    const fromDir = posix.dirname(fromPath);
    if (syntax === 'markdown') {
      // A Markdown link is a path relative to the linking note.
      const joined = posix.normalize(posix.join(fromDir, target));
      if (joined.startsWith('..')) return { kind: 'missing' };
      const asNote = this.byPath.get(key(joined.replace(NOTE_EXT, '')));
      if (asNote?.length === 1 && NOTE_EXT.test(joined)) return { kind: 'note', path: asNote[0] };
      const asFile = this.files.get(key(joined));
      if (asFile?.length === 1) return { kind: 'attachment', path: asFile[0] };
      if (asNote?.length === 1) return { kind: 'note', path: asNote[0] };
      return { kind: 'missing' };
    }
    const k = key(target);
    const noteKey = k.replace(NOTE_EXT, '');
    const looksLikeFile = /\.[a-z0-9]{1,8}$/i.test(target) && !NOTE_EXT.test(target);
    const tiers: Array<[Map<string, string[]>, string, 'note' | 'attachment']> = looksLikeFile
      ? [[this.files, k, 'attachment'], [this.fileNames, k, 'attachment'], [this.byTitle, k, 'note'], [this.byAlias, k, 'note']]
      : [[this.byPath, noteKey, 'note'], [this.byName, noteKey, 'note'], [this.byTitle, k, 'note'], [this.byAlias, k, 'note']];
    for (const [map, lookup, kind] of tiers) {
      const hit = this.pick(map.get(lookup), fromDir);
      if (hit === null) continue;
      if (Array.isArray(hit)) return { kind: 'ambiguous', candidates: [...hit].sort() };
      return kind === 'note' ? { kind: 'note', path: hit } : { kind: 'attachment', path: hit };
    }
    return { kind: 'missing' };
  }
}
