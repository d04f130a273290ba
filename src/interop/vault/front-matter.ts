// Splits a parsed note into its YAML front matter and its body. The front-matter block is
// found by the Markdown parser (a `yaml` node at the very start); the block is then read
// with `yaml`. A block that is not valid YAML, or not a mapping, leaves the whole file as
// text and says why.
import { parse as parseYaml } from 'yaml';
import type { Root } from 'mdast';

export interface SplitNote {
  /** The mapping, or null when there is none or it could not be read. */
  data: Record<string, unknown> | null;
  /** The text after the front matter (the whole text when the block was malformed). */
  body: string;
  /** Offset in the original text where `body` starts. */
  bodyOffset: number;
  /** Why the front matter was not used, when there was a block that looked like one. */
  problem?: string;
}

function isMapping(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date);
}

export function splitFrontMatter(text: string, tree: Root): SplitNote {
  const first = tree.children[0];
  if (first?.type !== 'yaml' || first.position?.end.offset === undefined) {
    // An opening fence with no closing one is not front matter to the parser; say so,
    // because the author surely meant it as such.
    const opened = /^---[ \t]*\r?\n/.test(text);
    return { data: null, body: text, bodyOffset: 0, problem: opened ? 'front matter has no closing "---" line' : undefined };
  }
  const end = first.position.end.offset;
  const rest = text.slice(end).replace(/^\r?\n/, '');
  const bodyOffset = text.length - rest.length;
  if (first.value.trim() === '') return { data: {}, body: rest, bodyOffset };
  let parsed: unknown;
  try {
    // Aliases are capped so a "billion laughs" block cannot blow up memory.
    parsed = parseYaml(first.value, { maxAliasCount: 100, prettyErrors: false, uniqueKeys: true });
  } catch (e) {
    const msg = e instanceof Error ? e.message.split('\n')[0] : String(e);
    return { data: null, body: text, bodyOffset: 0, problem: `front matter is not valid YAML: ${msg}` };
  }
  if (parsed === null || parsed === undefined) return { data: {}, body: rest, bodyOffset };
  if (!isMapping(parsed)) return { data: null, body: text, bodyOffset: 0, problem: 'front matter is not a YAML mapping of keys to values' };
  return { data: parsed, body: rest, bodyOffset };
}
