// The graph explorer (#/graph), loaded as its own chunk: the whole tenant's graph in WebGL,
// coloured by PARA item, tag or status, sized by degree, with filters, search-to-focus and
// click-to-open. Every action also has a keyboard path (search box, buttons, result list).
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { api } from '../lib/api.js';
import { asApiError } from '../lib/hooks.js';
import { useParaItems } from '../lib/para.js';
import { navigate } from '../lib/router.js';
import { Problem, Spinner } from '../components/ui.js';
import type { ApiError } from '../lib/api.js';
import { buildGraph, categorise, findNodes, passes, tagCounts, type ColourBy, type Filters, type GNode, type GraphData } from './model.js';
import { createExplorer, type ExplorerView, type GraphStats } from './renderer.js';

/** Nodes drawn at most (the most recently updated first); the API allows up to 20,000. */
const LIMIT = 10_000;

export default function Explorer({ focusId }: { focusId?: string | null }) {
  const box = useRef<HTMLDivElement>(null);
  const view = useRef<ExplorerView | null>(null);
  const [data, setData] = useState<GraphData | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [colourBy, setColourBy] = useState<ColourBy>('para');
  const [filters, setFilters] = useState<Filters>({ status: '', para: '', tag: '' });
  const [query, setQuery] = useState('');
  const [focused, setFocused] = useState<GNode | null>(null);
  const [layoutOn, setLayoutOn] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const { items, byId } = useParaItems();
  const paraLabel = (id: string) => byId.get(id)?.label ?? 'PARA item';

  useEffect(() => {
    let cancelled = false;
    const stats: GraphStats = { nodes: 0, edges: 0, fetch_ms: 0, build_ms: 0, first_frame_ms: 0, renders: [], layout_running: false };
    window.__rhizomeGraph = stats;
    const t0 = performance.now();
    api.get<GraphData>(`/graph?limit=${LIMIT}`).then(
      (d) => {
        if (cancelled) return;
        stats.fetch_ms = performance.now() - t0;
        setError(null);
        setData(d);
      },
      (e) => !cancelled && setError(asApiError(e)),
    );
    return () => {
      cancelled = true;
    };
  }, [attempt]);

  // Build the graph and the renderer once per load.
  useEffect(() => {
    if (!data || !box.current || data.nodes.length === 0) return;
    const stats = window.__rhizomeGraph!;
    const t = performance.now();
    const g = buildGraph(data);
    view.current = createExplorer(box.current, g, {
      onOpen: (id) => navigate(`/nodes/${encodeURIComponent(id)}`),
      onLayoutChange: setLayoutOn,
      stats,
    });
    window.__rhizomeGraphView = view.current;
    stats.nodes = g.order;
    stats.edges = g.size;
    stats.build_ms = performance.now() - t;
    return () => {
      view.current?.kill();
      view.current = null;
    };
  }, [data]);

  const cats = useMemo(() => (data ? categorise(data.nodes, colourBy, paraLabel) : null), [data, colourBy, items]);
  useEffect(() => {
    if (!cats || !view.current) return;
    const colour = new Map(cats.categories.map((c) => [c.key, c.colour]));
    view.current.setColour((n) => colour.get(cats.keyOf(n)) ?? '#9aa3a0');
  }, [cats, view.current]);
  useEffect(() => view.current?.setVisible((n) => passes(n, filters)), [filters, view.current]);
  useEffect(() => view.current?.focus(focused?.id ?? null), [focused, view.current]);
  useEffect(() => {
    if (focusId && data) setFocused(data.nodes.find((n) => n.id === focusId) ?? null);
  }, [focusId, data]);

  const tags = useMemo(() => (data ? tagCounts(data.nodes).slice(0, 200) : []), [data]);
  const hits = useMemo(() => (data ? findNodes(data.nodes.filter((n) => passes(n, filters)), query) : []), [data, query, filters]);
  const shown = useMemo(() => (data ? data.nodes.filter((n) => passes(n, filters)).length : 0), [data, filters]);
  const set = (k: keyof Filters) => (e: Event) => setFilters({ ...filters, [k]: (e.target as HTMLSelectElement).value });

  if (error) return <Problem error={error} title="The graph could not be loaded" onRetry={() => setAttempt((a) => a + 1)} />;
  if (!data) return <Spinner label="Loading the graph" />;
  if (data.nodes.length === 0) {
    return (
      <div class="empty">
        <p>
          <strong>No nodes yet.</strong> <a href="#/nodes/new">Write one</a> or <a href="#/captures">capture a page</a>, and the graph grows here.
        </p>
      </div>
    );
  }

  return (
    <div class="explorer">
      <form class="explorer-tools" role="search" aria-label="Find and filter the graph" onSubmit={(e) => (e.preventDefault(), hits[0] && setFocused(hits[0]))}>
        <div class="explorer-find">
          <label for="graph-find">Find a node</label>
          <input id="graph-find" type="search" value={query} autocomplete="off" placeholder="Title…" aria-controls={query ? "graph-hits" : undefined}
            onInput={(e) => setQuery((e.target as HTMLInputElement).value)} />
          {query && (
            <ul id="graph-hits" class="explorer-hits" aria-label="Matching nodes">
              {hits.length === 0 && <li class="muted">No title matches</li>}
              {hits.map((n) => (
                <li key={n.id}>
                  <button type="button" class="linklike" onClick={() => (setFocused(n), setQuery(''))}>
                    {n.title}
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
        <div class="explorer-field">
          <label for="graph-colour">Colour by</label>
          <select id="graph-colour" value={colourBy} onChange={(e) => setColourBy((e.target as HTMLSelectElement).value as ColourBy)}>
            <option value="para">PARA item</option>
            <option value="tag">Tag</option>
            <option value="status">Status</option>
          </select>
        </div>
        <div class="explorer-field">
          <label for="graph-status">Status</label>
          <select id="graph-status" value={filters.status} onChange={set('status')}>
            <option value="">Any</option>
            <option value="raw">Raw</option>
            <option value="validated">Validated</option>
            <option value="dismissed">Dismissed</option>
          </select>
        </div>
        <div class="explorer-field">
          <label for="graph-para">PARA</label>
          <select id="graph-para" value={filters.para} onChange={set('para')}>
            <option value="">Any</option>
            <option value="-">No PARA item</option>
            {items.map((i) => (
              <option key={i.id} value={i.id}>{i.label}</option>
            ))}
          </select>
        </div>
        <div class="explorer-field">
          <label for="graph-tag">Tag</label>
          <select id="graph-tag" value={filters.tag} onChange={set('tag')}>
            <option value="">Any</option>
            {tags.map(([t, c]) => (
              <option key={t} value={t}>#{t} ({c})</option>
            ))}
          </select>
        </div>
      </form>

      <div class="explorer-stage">
        <div ref={box} class="explorer-canvas" role="img"
          aria-label={`Graph of ${shown} nodes and their links. Use "Find a node" to focus one; click a node to open it.`} />
        <div class="explorer-zoom" role="group" aria-label="Zoom">
          <button type="button" class="btn btn-sm" onClick={() => view.current?.zoom(1)} aria-label="Zoom in">+</button>
          <button type="button" class="btn btn-sm" onClick={() => view.current?.zoom(-1)} aria-label="Zoom out">−</button>
          <button type="button" class="btn btn-sm" onClick={() => (setFocused(null), view.current?.fit())}>Fit</button>
          <button type="button" class="btn btn-sm" aria-pressed={layoutOn} onClick={() => view.current?.setLayoutRunning(!layoutOn)}>
            {layoutOn ? 'Pause layout' : 'Run layout'}
          </button>
        </div>
        {focused && (
          <div class="explorer-focus" role="status">
            <strong>{focused.title}</strong>
            <span class="muted">{focused.degree} links · {focused.status}</span>
            <a class="btn btn-primary btn-sm" href={`#/nodes/${encodeURIComponent(focused.id)}`}>Open</a>
            <button type="button" class="btn btn-ghost btn-sm" onClick={() => setFocused(null)}>Clear</button>
          </div>
        )}
      </div>

      <div class="explorer-foot">
        <p class="hint">
          {shown === data.nodes.length ? `${data.nodes.length} nodes` : `${shown} of ${data.nodes.length} nodes`} · {data.links.length} links
          {data.truncated && ` · showing the ${data.nodes.length} most recently updated of ${data.total_nodes}`}
        </p>
        {cats && (
          <ul class="legend" aria-label={`Colours by ${colourBy === 'para' ? 'PARA item' : colourBy}`}>
            {cats.categories.map((c) => (
              <li key={c.key}>
                <span class="swatch" style={{ background: c.colour }} aria-hidden="true" />
                {c.label} <span class="muted">{c.count}</span>
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}
