// The reader: a node's article, cleaned (its Markdown rendered and sanitised), with its
// highlights drawn in. Select words to highlight them, with or without a note; the side
// panel lists them and leads to each; the reading position is kept. On a phone the panel
// follows the article and the highlight bar sits at the bottom of the screen.
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import { renderMarkdown } from '../components/Markdown.js';
import { Missing } from '../components/Missing.js';
import { Button, Problem, Spinner } from '../components/ui.js';
import { api } from '../lib/api.js';
import { ago, fullTime } from '../lib/format.js';
import { useAction, useApi } from '../lib/hooks.js';
import { toast } from '../lib/toast.js';
import type { KNode, NodeHighlight } from '../lib/types.js';
import { drawHighlights, quoteOfSelection } from './text-anchors.js';
import { useReadingPosition } from './reading-position.js';
import { ArchivedCopy } from './ArchivedCopy.js';
import '../styles/reader.css';

type Highlight = NodeHighlight;
type Quote = NonNullable<ReturnType<typeof quoteOfSelection>>;
const COLORS = ['yellow', 'green', 'blue', 'pink', 'purple'] as const;

/** `highlight`: a highlight to go to once the article is shown (`#/nodes/{id}/read?highlight=hl_…`, where a search hit leads). */
export function ReaderPage({ id, highlight }: { id: string; highlight?: string | null }) {
  const path = `/nodes/${encodeURIComponent(id)}`;
  const { data: node, error, reload, setData } = useApi<KNode & { annotations: Highlight[] }>(path);
  const article = useRef<HTMLDivElement>(null);
  const [pending, setPending] = useState<Quote | null>(null);
  const [noting, setNoting] = useState(false);
  const [note, setNote] = useState('');
  const [color, setColor] = useState<(typeof COLORS)[number]>('yellow');
  const [unplaced, setUnplaced] = useState<string[]>([]);
  const html = useMemo(() => (node ? renderMarkdown(node.body_markdown) : ''), [node?.body_markdown]);
  const highlights = node?.annotations ?? [];

  useLayoutEffect(() => {
    const el = article.current;
    if (!el) return;
    el.innerHTML = html;
    setUnplaced(drawHighlights(el, highlights));
  }, [html, highlights]);
  // A link to one highlight wins over the saved reading position.
  useReadingPosition(id, () => article.current, !!node && !highlight);
  useEffect(() => {
    const h = highlight && node ? highlights.find((x) => x.id === highlight) : undefined;
    if (h) requestAnimationFrame(() => goTo(h));
  }, [highlight, !!node]);

  useEffect(() => {
    const on = () => {
      if (noting) return;
      setPending(article.current ? quoteOfSelection(article.current, document.getSelection()) : null);
    };
    document.addEventListener('selectionchange', on);
    return () => document.removeEventListener('selectionchange', on);
  }, [noting]);

  const add = useAction(async (q: Quote, withNote: string) => {
    const h = await api.post<Highlight>(`${path}/highlights`, {
      text: q.exact,
      color,
      ...(withNote.trim() ? { note: withNote.trim() } : {}),
      selectors: [{ type: 'TextQuoteSelector', exact: q.exact, prefix: q.prefix, suffix: q.suffix }],
    });
    setData({ ...node!, annotations: [...node!.annotations, h] });
    document.getSelection()?.removeAllRanges();
    setPending(null);
    setNoting(false);
    setNote('');
    toast('Highlighted');
  });
  const remove = useAction(async (h: Highlight) => {
    await api.del(`${path}/highlights/${encodeURIComponent(h.id)}`);
    setData({ ...node!, annotations: node!.annotations.filter((x) => x.id !== h.id) });
  });
  const goTo = (h: Highlight) => {
    const mark = article.current?.querySelector<HTMLElement>(`mark[data-highlight="${CSS.escape(h.id)}"]`);
    if (!mark) return;
    mark.scrollIntoView({ block: 'center', behavior: 'smooth' });
    mark.classList.add('hl-flash');
    setTimeout(() => mark.classList.remove('hl-flash'), 1200);
  };

  if (error?.status === 404) return <Missing what="node" back={{ href: '#/', label: 'Back to search' }} />;
  if (error) return <div class="page"><Problem error={error} onRetry={reload} /></div>;
  if (!node) return <div class="page"><Spinner /></div>;

  return (
    <div class="page page-reader">
      <nav class="crumbs" aria-label="Breadcrumb">
        <a href="#/">Search</a> <span aria-hidden="true">/</span> <a href={`#${path}`}>Node</a> <span aria-hidden="true">/</span> <span>Read</span>
      </nav>
      <div class="reader-grid">
        <article class="reader-article" aria-label="Article">
          <h1>{node.title}</h1>
          <p class="muted reader-meta" title={fullTime(node.created_at)}>Saved {ago(node.created_at)}</p>
          <ArchivedCopy nodeId={node.id} />
          <div ref={article} class="prose reader-text" />
        </article>
        <aside class="reader-side" aria-label="Highlights">
          <h2>Highlights {highlights.length > 0 && <span class="badge">{highlights.length}</span>}</h2>
          {highlights.length === 0 && <p class="muted">Select words in the article to highlight them.</p>}
          <ol class="reader-list">
            {highlights.map((h) => (
              <li key={h.id} class={`reader-item hl-edge-${h.color}`}>
                <button class="linklike reader-quote" onClick={() => goTo(h)} disabled={unplaced.includes(h.id)} title={unplaced.includes(h.id) ? 'These words are no longer in the article' : 'Go to this highlight'}>
                  “{h.text.length > 240 ? `${h.text.slice(0, 240)}…` : h.text}”
                </button>
                {h.note && <p class="reader-note">{h.note}</p>}
                <div class="reader-item-foot">
                  <span class="muted" title={fullTime(h.created_at)}>{ago(h.created_at)}</span>
                  {unplaced.includes(h.id) && <span class="muted">· not in the text any more</span>}
                  <button class="linklike" disabled={remove.busy} onClick={() => void remove.run(h)} aria-label={`Remove highlight “${h.text.slice(0, 40)}”`}>
                    Remove
                  </button>
                </div>
              </li>
            ))}
          </ol>
          <Problem error={remove.error} />
        </aside>
      </div>
      {pending && (
        <div class="reader-bar" role="toolbar" aria-label="Highlight the selection">
          {noting ? (
            <form class="reader-bar-note" onSubmit={(e) => { e.preventDefault(); void add.run(pending, note); }}>
              <label class="sr-only" for="hl-note">Note</label>
              <textarea id="hl-note" rows={2} placeholder="Your note" value={note} onInput={(e) => setNote((e.target as HTMLTextAreaElement).value)} autoFocus />
              <Button tone="primary" type="submit" busy={add.busy}>Save</Button>
              <Button onClick={() => setNoting(false)}>Cancel</Button>
            </form>
          ) : (
            <>
              <div class="reader-colors" role="radiogroup" aria-label="Colour">
                {COLORS.map((c) => (
                  <button key={c} role="radio" aria-checked={color === c} aria-label={c} class={`swatch hl-${c} ${color === c ? 'on' : ''}`} onMouseDown={(e) => e.preventDefault()} onClick={() => setColor(c)} />
                ))}
              </div>
              <Button tone="primary" busy={add.busy} onMouseDown={(e: MouseEvent) => e.preventDefault()} onClick={() => void add.run(pending, '')}>Highlight</Button>
              <Button onMouseDown={(e: MouseEvent) => e.preventDefault()} onClick={() => setNoting(true)}>Highlight with note</Button>
            </>
          )}
          <Problem error={add.error} />
        </div>
      )}
    </div>
  );
}
