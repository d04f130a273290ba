// Plain text and markdown are already what a node holds: kept as they are.
import { wordCount } from '../text-stats.js';
import type { Extracted } from './types.js';

export function extractText(text: string, kind: 'text' | 'markdown'): Extracted {
  const markdown = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n').trim();
  const heading = kind === 'markdown' ? markdown.match(/^#\s+(.+)$/m)?.[1]?.trim() : undefined;
  return { title: heading, markdown, metadata: { word_count: wordCount(markdown) }, extractor: `rhizome-${kind}@1` };
}
