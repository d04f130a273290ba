// File and folder names that work on Windows, macOS and Linux and inside wikilinks:
// filenamify handles forbidden and control characters, reserved device names (CON, NUL,
// COM1...), trailing dots and spaces and length; on top of it the characters that break
// `[[wikilinks]]` (# ^ [ ] |) go too, and names are made unique the way case-insensitive
// file systems compare them.
import filenamify from 'filenamify';

const WIKILINK_BREAKERS = /[#^[\]|]/g;
/** Room for " 999" and an extension within common 255-byte limits, in characters. */
const MAX_STEM = 100;

export function safeStem(name: string, fallback = 'Untitled'): string {
  const cleaned = name.normalize('NFC').replace(WIKILINK_BREAKERS, ' ').replace(/\s+/g, ' ').trim();
  let stem = filenamify(cleaned, { replacement: '-', maxLength: MAX_STEM }).replace(/^[.\s]+/, '').replace(/[.\s]+$/, '');
  if (!stem || /^-+$/.test(stem)) stem = fallback;
  return stem;
}

/** Hands out names unique under case-insensitive, normalisation-insensitive comparison. */
export class UniqueNames {
  private readonly taken = new Set<string>();

  private static key(s: string): string {
    return s.normalize('NFC').toLowerCase();
  }

  /** `stem` + `ext` (with its dot), with " 2", " 3"... added to the stem when needed. */
  claim(stem: string, ext = ''): string {
    let candidate = stem;
    for (let i = 2; this.taken.has(UniqueNames.key(candidate + ext)); i++) candidate = `${stem} ${i}`;
    this.taken.add(UniqueNames.key(candidate + ext));
    return candidate;
  }
}

/** A file's stem and extension (`.pdf`), the extension made safe too. */
export function splitName(name: string): { stem: string; ext: string } {
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return { stem: name, ext: '' };
  const ext = name.slice(dot).replace(/[^.a-zA-Z0-9]/g, '').slice(0, 12);
  return { stem: name.slice(0, dot), ext: ext === '.' ? '' : ext.toLowerCase() };
}
