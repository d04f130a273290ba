// Ask your notes: a question answered from them, streamed as it is written, every sentence
// with a numbered citation that opens its note at the passage. The question and filters live
// in the URL (`#/ask?q=…&tag=…&para=…&from=…&to=…`), so the palette and links can ask too.
import { useEffect, useRef, useState } from 'preact/hooks';
import { Button, PageHead, Problem, Spinner } from '../components/ui.js';
import { qs, type ApiError } from '../lib/api.js';
import { asApiError, useApi } from '../lib/hooks.js';
import { useParaItems } from '../lib/para.js';
import { navigate } from '../lib/router.js';
import type { Tag } from '../lib/types.js';
import { AnswerText, CitationList, MaybeRelated } from './Answer.js';
import { askStream, type AskFilters, type AskResult, type Citation } from './ask-stream.js';
import '../styles/ask.css';

interface Shown {
  text: string;
  citations: Citation[];
  mode: AskResult['mode'];
  result?: AskResult;
  notice?: string;
}

export function AskPage({ query }: { query: URLSearchParams }) {
  const q = query.get('q') ?? '';
  const tag = query.get('tag') ?? '';
  const para = query.get('para') ?? '';
  const from = query.get('from') ?? '';
  const to = query.get('to') ?? '';
  const [text, setText] = useState(q);
  const [shown, setShown] = useState<Shown | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const tags = useApi<{ data: Tag[] }>('/tags');
  const { items: paraItems } = useParaItems();

  const go = (patch: Record<string, string | undefined>) => navigate('/ask' + qs({ q, tag, para, from, to, ...patch }), true);

  useEffect(() => {
    if (!q.trim()) {
      if (matchMedia('(min-width: 721px)').matches) input.current?.focus({ preventScroll: true });
      return;
    }
    const filters: AskFilters = {
      ...(tag ? { tags: [tag] } : {}),
      ...(para ? { para_item_id: para } : {}),
      ...(from ? { occurred_after: from } : {}),
      ...(to ? { occurred_before: to } : {}),
    };
    const stop = new AbortController();
    setBusy(true);
    setError(null);
    setShown(null);
    let notice: string | undefined;
    askStream(q, filters, (e) => {
      if (e.type === 'citations') setShown({ text: '', citations: e.citations, mode: e.mode, notice });
      else if (e.type === 'delta') setShown((s) => (s ? { ...s, text: s.text + e.text } : s));
      else if (e.type === 'fallback') notice = e.notice;
      else setShown({ text: e.result.answer, citations: e.result.citations, mode: e.result.mode, result: e.result, notice: e.result.notice });
    }, stop.signal)
      .catch((e) => (e as Error).name !== 'AbortError' && setError(asApiError(e)))
      .finally(() => !stop.signal.aborted && setBusy(false));
    return () => stop.abort();
  }, [q, tag, para, from, to]);

  const submit = (e: Event) => {
    e.preventDefault();
    if (text.trim()) navigate('/ask' + qs({ q: text.trim(), tag, para, from, to }));
  };
  const done = shown?.result;

  return (
    <div class="page page-ask">
      <PageHead title="Ask your notes" sub="Answers are drawn from your notes; every sentence cites the passage it came from." />
      <form class="ask-form" role="search" onSubmit={submit}>
        <label for="ask-input" class="sr-only">Your question</label>
        <input id="ask-input" ref={input} type="search" placeholder="What did I decide about…?" autocomplete="off" maxLength={2000} value={text} onInput={(e) => setText(e.currentTarget.value)} />
        <Button type="submit" tone="primary" busy={busy} disabled={!text.trim()}>Ask</Button>
      </form>
      <div class="filters ask-filters">
        <label class="inline-field">
          <span>Tag</span>
          <select value={tag} onChange={(e) => go({ tag: e.currentTarget.value || undefined })}>
            <option value="">Any</option>
            {tag && !tags.data?.data.some((t) => t.name === tag) && <option value={tag}>{tag}</option>}
            {(tags.data?.data ?? []).map((t) => <option key={t.name} value={t.name}>{t.name}</option>)}
          </select>
        </label>
        <label class="inline-field">
          <span>PARA item</span>
          <select value={para} onChange={(e) => go({ para: e.currentTarget.value || undefined })}>
            <option value="">Any</option>
            {paraItems.map((p) => <option key={p.id} value={p.id}>{p.label} ({p.category})</option>)}
          </select>
        </label>
        <label class="inline-field">
          <span>From</span>
          <input type="date" value={from} max={to || undefined} onChange={(e) => go({ from: e.currentTarget.value || undefined })} />
        </label>
        <label class="inline-field">
          <span>To</span>
          <input type="date" value={to} min={from || undefined} onChange={(e) => go({ to: e.currentTarget.value || undefined })} />
        </label>
      </div>

      {error && <Problem error={error} title="No answer" />}
      {busy && !shown && <Spinner label="Reading your notes" />}
      {shown && (
        <section class="ask-result card" aria-live="polite" aria-busy={busy}>
          <p class="ask-mode">{done?.abstained ? 'Nothing in your notes answers this' : shown.mode === 'generative' ? 'Written by your model from the passages below' : 'Quoted from your notes'}</p>
          <AnswerText text={shown.text} citations={shown.citations} />
          {shown.notice && <p class="ask-notice" role="note">{shown.notice}</p>}
          <CitationList citations={done?.abstained ? [] : shown.citations} />
          {done?.abstained && <MaybeRelated notes={done.maybe_related} />}
        </section>
      )}
    </div>
  );
}
