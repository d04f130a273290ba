// What a URL capture becomes while its page cannot be fetched: a bookmark node with the
// title, the URL, why it was kept and the user's tags, marked `not-fetched`. A later
// successful run replaces it with the page (the same node, updated).
import type { CaptureRow } from '../../repos/captures.repo.js';

export const NOT_FETCHED_TAG = 'not-fetched';

export function bookmarkNode(c: CaptureRow, reason: string, willRetry: boolean, userTags: string[]) {
  const state = willRetry ? `Not fetched yet (${reason}); Rhizome will try again.` : `Could not be fetched (${reason}).`;
  const parts = [`<${c.url}>`, `_${state}_`];
  if (c.selected_text) parts.push(`> ${c.selected_text.slice(0, 5000).replace(/\n/g, '\n> ')}`);
  if (c.why) parts.push(`Why I kept this: ${c.why.slice(0, 10_000)}`);
  return {
    title: c.title,
    content: parts.join('\n\n'),
    summary: (c.why ?? '').slice(0, 600),
    tags: [...new Set([...userTags, NOT_FETCHED_TAG])],
  };
}
