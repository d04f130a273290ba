// Home: graph health, then search with mode and filters. Keyboard-first: `/` focuses the
// box, arrows move through results, Enter opens. The query lives in the URL (shareable).
import { useEffect, useRef, useState } from 'preact/hooks';
import { HealthStrip } from '../home/HealthStrip.js';
import { Inbox } from '../home/Inbox.js';
import { DATE_PRESETS, dateRange } from '../lib/date-filter.js';
import { NodeCard, resultHref } from '../components/NodeCard.js';
import { Button, Empty, Problem, Spinner } from '../components/ui.js';
import { qs } from '../lib/api.js';
import { useApi } from '../lib/hooks.js';
import { plural } from '../lib/format.js';
import { useParaItems } from '../lib/para.js';
import { navigate } from '../lib/router.js';
import type { SearchMode, SearchPage as Page, Tag } from '../lib/types.js';

const MODES: Array<{ value: SearchMode; label: string; hint: string }> = [
  { value: 'hybrid', label: 'Hybrid', hint: 'Words and meaning, fused' },
  { value: 'keyword', label: 'Keyword', hint: 'Exact words (BM25)' },
  { value: 'semantic', label: 'Semantic', hint: 'Closest in meaning' },
];
const PER_PAGE = 20;

export function SearchPage({ query }: { query: URLSearchParams }) {
  const q = query.get('q') ?? '';
  const mode = (query.get('mode') as SearchMode) || 'hybrid';
  const status = query.get('status') ?? '';
  const para = query.get('para') ?? '';
  const orphan = query.get('orphan') === 'true';
  const tag = query.get('tag') ?? '';
  const when = query.get('when') ?? '';
  const from = query.get('from') ?? '';
  const to = query.get('to') ?? '';
  const tags = useApi<{ data: Tag[] }>('/tags');
  const page = Math.max(1, Number(query.get('page')) || 1);
  const { items: paraItems, byId } = useParaItems();

  const [text, setText] = useState(q);
  const [active, setActive] = useState(-1);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => setText(q), [q]);
  // Keyboard-first on desktop; on a phone, focusing would pop the keyboard over the page.
  useEffect(() => {
    if (matchMedia('(min-width: 721px)').matches) input.current?.focus({ preventScroll: true });
  }, []);

  const set = (patch: Record<string, string | undefined>) => {
    const next = { q, mode: mode === 'hybrid' ? undefined : mode, status, para, orphan: orphan ? 'true' : undefined, tag, when, from, to, page: undefined as string | undefined, ...patch };
    navigate('/' + qs(next), true);
  };

  // Typing searches after a short pause, without one history entry per keystroke.
  useEffect(() => {
    if (text === q) return;
    const t = setTimeout(() => set({ q: text.trim() ? text : undefined }), 220);
    return () => clearTimeout(t);
  }, [text]);

  const range = dateRange(when, from, to);
  const path = '/nodes' + qs({ query: q.trim() || undefined, mode: q.trim() ? mode : undefined, status, para_item_id: para, orphan: orphan || undefined, tag, updated_after: range.after, updated_before: range.before, page, per_page: PER_PAGE });
  const { data, error, loading, reload } = useApi<Page>(path, { keepPrevious: true });
  const results = data?.data ?? [];
  useEffect(() => setActive(results.length && q ? 0 : -1), [data]);

  const onKey = (e: KeyboardEvent) => {
    if (!results.length) return;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      const d = e.key === 'ArrowDown' ? 1 : -1;
      const n = Math.min(results.length - 1, Math.max(0, active + d));
      setActive(n);
      document.getElementById(`result-${n}`)?.scrollIntoView({ block: 'nearest' });
    } else if (e.key === 'Enter' && active >= 0 && results[active]) {
      e.preventDefault();
      navigate(resultHref(results[active]));
    } else if (e.key === 'Escape') {
      setText('');
    }
  };

  const filtered = !!(status || para || orphan || tag || when);
  const first = (page - 1) * PER_PAGE + 1;
  const last = first + results.length - 1;

  return (
    <div class="page page-search">
      <HealthStrip />
      <div class="search-panel" role="search">
        <div class="search-box">
          <svg class="search-icon" viewBox="0 0 20 20" width="18" height="18" aria-hidden="true">
            <circle cx="8.5" cy="8.5" r="5.5" fill="none" stroke="currentColor" stroke-width="2" />
            <path d="m13 13 4.5 4.5" stroke="currentColor" stroke-width="2" stroke-linecap="round" />
          </svg>
          <label for="search-input" class="sr-only">
            Search nodes
          </label>
          <input
            id="search-input"
            ref={input}
            type="search"
            aria-controls="results"
            aria-describedby="search-keys"
            placeholder="Search your graph…"
            autocomplete="off"
            maxLength={500}
            value={text}
            onInput={(e) => setText(e.currentTarget.value)}
            onKeyDown={onKey}
          />
          <kbd class="kbd" aria-hidden="true">/</kbd>
          <span id="search-keys" class="sr-only">Up and down arrows pick a result, Enter opens it.</span>
        </div>
        <div class="search-controls">
          <fieldset class="segmented">
            <legend class="sr-only">Search mode</legend>
            {MODES.map((m) => (
              <label key={m.value} class={mode === m.value ? 'on' : ''} title={m.hint}>
                <input type="radio" name="mode" value={m.value} checked={mode === m.value} onChange={() => set({ mode: m.value === 'hybrid' ? undefined : m.value })} />
                {m.label}
              </label>
            ))}
          </fieldset>
          <div class="filters">
            <label class="inline-field">
              <span>Status</span>
              <select value={status} onChange={(e) => set({ status: e.currentTarget.value || undefined })}>
                <option value="">Any</option>
                <option value="raw">Raw</option>
                <option value="validated">Validated</option>
                <option value="dismissed">Dismissed</option>
              </select>
            </label>
            <label class="inline-field">
              <span>PARA item</span>
              <select value={para} disabled={orphan} onChange={(e) => set({ para: e.currentTarget.value || undefined })}>
                <option value="">Any</option>
                {paraItems.map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.label} ({p.category})
                  </option>
                ))}
              </select>
            </label>
            <label class="inline-field">
              <span>Tag</span>
              <select value={tag} onChange={(e) => set({ tag: e.currentTarget.value || undefined })}>
                <option value="">Any</option>
                {tag && !tags.data?.data.some((t) => t.name === tag) && <option value={tag}>{tag}</option>}
                {(tags.data?.data ?? []).map((t) => (
                  <option key={t.name} value={t.name}>
                    {t.name} ({t.count})
                  </option>
                ))}
              </select>
            </label>
            <label class="inline-field">
              <span>Updated</span>
              <select value={when} onChange={(e) => set({ when: e.currentTarget.value || undefined, from: undefined, to: undefined })}>
                <option value="">Any time</option>
                {DATE_PRESETS.map((d) => (
                  <option key={d.value} value={d.value}>
                    {d.label}
                  </option>
                ))}
              </select>
            </label>
            {when === 'range' && (
              <>
                <label class="inline-field">
                  <span>From</span>
                  <input type="date" value={from} max={to || undefined} onChange={(e) => set({ from: e.currentTarget.value || undefined })} />
                </label>
                <label class="inline-field">
                  <span>To</span>
                  <input type="date" value={to} min={from || undefined} onChange={(e) => set({ to: e.currentTarget.value || undefined })} />
                </label>
              </>
            )}
            <label class="check">
              <input type="checkbox" checked={orphan} onChange={(e) => set({ orphan: e.currentTarget.checked ? 'true' : undefined, para: undefined })} />
              Orphans only
            </label>
            {filtered && (
              <Button size="sm" tone="ghost" onClick={() => set({ status: undefined, para: undefined, orphan: undefined, tag: undefined, when: undefined, from: undefined, to: undefined })}>
                Clear filters
              </Button>
            )}
          </div>
        </div>
      </div>

      {!q && !filtered && page === 1 && <Inbox />}

      <div class="results-head" aria-live="polite">
        {data && (
          <span>
            {q ? 'Results' : filtered ? 'Filtered nodes' : 'Recently updated'}
            {data.total > 0 && <span class="muted"> · {first}–{last} of {data.total.toLocaleString()}</span>}
            {q && data.total_matches !== undefined && <span class="muted"> · {plural(data.total_matches, 'keyword match', 'keyword matches')}</span>}
            {data.coverage_capped && <span class="muted"> · showing the best candidates only</span>}
          </span>
        )}
        {loading && <span class="spinner" role="status" aria-label="Searching" />}
      </div>

      <Problem error={error} onRetry={reload} />
      {!data && !error && <Spinner label="Searching" />}
      {data && results.length === 0 && (
        <Empty title={q ? 'No notes match' : 'No nodes yet'}>
          {q ? <p>No note contains these words or is close enough in meaning to “{q}”. Try other words, or fewer filters.</p> : <p>Create your first node, or capture a page or a note.</p>}
          <div class="row">
            <a class="btn btn-primary btn-md" href="#/nodes/new">
              New node
            </a>
            <a class="btn btn-default btn-md" href="#/captures">
              Capture something
            </a>
          </div>
        </Empty>
      )}
      {results.length > 0 && (
        <ol id="results" class="results" aria-label="Search results">
          {results.map((n, i) => (
            <NodeCard key={n.id} id={`result-${i}`} node={n} para={byId} active={i === active} />
          ))}
        </ol>
      )}
      {data && data.total > PER_PAGE && (
        <nav class="pager" aria-label="Pages">
          <Button size="sm" disabled={page <= 1} onClick={() => set({ page: String(page - 1) })}>
            Previous
          </Button>
          <span class="muted">
            Page {page} of {Math.ceil(data.total / PER_PAGE)}
          </span>
          <Button size="sm" disabled={last >= data.total} onClick={() => set({ page: String(page + 1) })}>
            Next
          </Button>
        </nav>
      )}
    </div>
  );
}
