// A node's body: markdown rendered with marked, then sanitised with DOMPurify, because
// captured pages carry whatever HTML their authors wrote.
import DOMPurify from 'dompurify';
import { marked } from 'marked';
import { useMemo } from 'preact/hooks';

DOMPurify.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName === 'A' && /^https?:/i.test(node.getAttribute('href') ?? '')) {
    node.setAttribute('target', '_blank');
    node.setAttribute('rel', 'noopener noreferrer');
  }
});

/**
 * Inline event handlers (`onerror="…"`) dropped from the tags before DOMPurify parses them:
 * DOMPurify would remove them too, but Chromium reports every handler it meets while parsing,
 * even in a document that never runs, as a violation of the page's CSP. Only real tags are
 * touched (marked escapes code), and DOMPurify still decides what stays.
 */
const HANDLER = /\s+on[a-z]+\s*=\s*("[^"]*"|'[^']*'|[^\s>]+)/gi;
const withoutHandlers = (html: string) => html.replace(/<[a-z][^>]*>/gi, (tag) => tag.replace(HANDLER, ''));

export function renderMarkdown(md: string): string {
  const html = withoutHandlers(marked.parse(md, { async: false, gfm: true, breaks: false }) as string);
  return DOMPurify.sanitize(html, { USE_PROFILES: { html: true }, FORBID_TAGS: ['style', 'form', 'input', 'button'] });
}

export function Markdown({ source }: { source: string }) {
  const html = useMemo(() => renderMarkdown(source), [source]);
  return <div class="prose" dangerouslySetInnerHTML={{ __html: html }} />;
}
