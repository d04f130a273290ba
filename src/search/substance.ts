// Whether a text says enough to be filed or drawn in by meaning. An embedding of "IMG_2041.png"
// or "INFO server started pid 4121" is not about anything, yet it lands near whatever is
// closest, and short texts sit close to everything. The rule: a node is near-empty when
//  - its title, summary and body together hold fewer than NEAR_EMPTY_WORDS distinct content
//    words (runs of three or more letters, not stopwords; image links, URLs, code spans and
//    file names are dropped first, and numbers never count), or
//  - its whole text is one line of log output (a line starting with a timestamp or a log
//    level such as INFO, WARN, ERROR).
// Pure functions.
import { STOPWORDS } from './text.js';

export const NEAR_EMPTY_WORDS = 4;
/** Link targets, image sources and code spans carry no prose: left out before counting. */
const NOT_PROSE = /!\[[^\]]*\]\([^)]*\)|\]\([^)]*\)|https?:\/\/\S+|`[^`]*`|\b[\w.-]+\.(?:png|jpe?g|gif|webp|svg|pdf|heic|log|txt)\b/gi;

/** Distinct content words of a text. */
export function contentWordCount(text: string): number {
  const words = text
    .replace(NOT_PROSE, ' ')
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .match(/\p{L}{3,}/gu);
  if (!words) return 0;
  return new Set(words.filter((w) => !STOPWORDS.has(w))).size;
}

const LOG_LINE = /^\s*(?:\[?\d{4}-\d{2}-\d{2}[T ]\d{1,2}:\d{2}|\[?\d{1,2}:\d{2}:\d{2}\b|\[?(?:TRACE|DEBUG|INFO|NOTICE|WARN|WARNING|ERROR|ERR|FATAL|CRITICAL)\b)/;

/** One line that reads like log output. */
export function isLogLine(text: string): boolean {
  const t = text.trim();
  return t.length > 0 && !t.includes('\n') && LOG_LINE.test(t);
}

export function isNearEmpty(node: { title: string; summary?: string; body_markdown?: string }): boolean {
  const body = `${node.summary ?? ''}\n${node.body_markdown ?? ''}`.trim();
  if (isLogLine(body || node.title) && (!body || isLogLine(node.title) || contentWordCount(node.title) < NEAR_EMPTY_WORDS)) return true;
  return contentWordCount(`${node.title} ${body}`) < NEAR_EMPTY_WORDS;
}
