// `[[` completion: as the user types after `[[`, node titles come from the search API and
// picking one inserts `[[Title]]`; the caller remembers the title's node id for the links.
import type { Completion, CompletionContext, CompletionResult, CompletionSource } from '@codemirror/autocomplete';

export interface TitleHit {
  id: string;
  title: string;
  summary?: string;
}
export type TitleLookup = (text: string, signal: AbortSignal) => Promise<TitleHit[]>;

export function wikilinkSource(lookup: TitleLookup, onPick: (title: string, id: string) => void): CompletionSource {
  return async (ctx: CompletionContext): Promise<CompletionResult | null> => {
    const m = ctx.matchBefore(/\[\[[^\][\n]*$/);
    if (!m) return null;
    const text = m.text.slice(2);
    const ctrl = new AbortController();
    ctx.addEventListener('abort', () => ctrl.abort());
    let hits: TitleHit[];
    try {
      hits = await lookup(text, ctrl.signal);
    } catch {
      return null;
    }
    if (ctx.aborted) return null;
    // A closing `]]` typed already (closeBrackets) is swallowed by the completion.
    const after = ctx.state.sliceDoc(ctx.pos, ctx.pos + 2);
    const to = ctx.pos + (after === ']]' ? 2 : 0);
    const options: Completion[] = hits.map((h) => ({
      label: h.title,
      detail: h.summary ? h.summary.slice(0, 60) : undefined,
      type: 'text',
      apply: (view, _c, from) => {
        const insert = `[[${h.title}]]`;
        view.dispatch({ changes: { from, to, insert }, selection: { anchor: from + insert.length } });
        onPick(h.title, h.id);
      },
    }));
    return { from: m.from, to, options, filter: false };
  };
}

/** Every `[[Title]]` or `[[Title|alias]]` in a Markdown text, trimmed, in order, once each. */
export function wikilinkTitles(md: string): string[] {
  const out = new Set<string>();
  for (const m of md.matchAll(/\[\[([^\][\n|]+)(?:\|[^\][\n]*)?\]\]/g)) {
    const t = m[1].trim();
    if (t) out.add(t);
  }
  return [...out];
}
