// #/graph: a thin page that loads the explorer chunk (sigma, graphology, ForceAtlas2) on
// first visit, so the rest of the dashboard never downloads it.
import type { FunctionComponent } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { PageHead, Problem, Spinner } from '../components/ui.js';
import { ApiError } from '../lib/api.js';

let loaded: FunctionComponent<{ focusId?: string | null }> | null = null;

export function GraphPage({ query }: { query: URLSearchParams }) {
  const [Explorer, setExplorer] = useState(() => loaded);
  const [error, setError] = useState<ApiError | null>(null);
  useEffect(() => {
    if (Explorer) return;
    import('../graph/Explorer.js').then(
      (m) => setExplorer(() => (loaded = m.default)),
      (e) => setError(new ApiError(0, 'chunk_failed', 'The graph explorer could not be loaded', String(e?.message ?? e))),
    );
  }, []);
  return (
    <div class="page page-wide">
      <PageHead title="Graph" sub="Every node and link. Colour, filter and find; click a node to open it." />
      {error ? <Problem error={error} /> : Explorer ? <Explorer focusId={query.get('focus')} /> : <Spinner label="Loading the graph explorer" />}
    </div>
  );
}
