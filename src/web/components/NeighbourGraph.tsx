// The node's neighbourhood, 1–2 hops, drawn by sigma (the explorer's renderer, loaded on
// demand: only this panel and #/graph need it). Click a node to open it.
import { useEffect, useRef, useState } from 'preact/hooks';
import { api } from '../lib/api.js';
import { navigate } from '../lib/router.js';
import type { Related } from '../lib/types.js';

const SECOND_HOP_FROM = 12;
const SECOND_HOP_EACH = 8;

interface Props {
  center: { id: string; title: string };
  neighbours: Related[];
}

export function NeighbourGraph({ center, neighbours }: Props) {
  const box = useRef<HTMLDivElement>(null);
  const [note, setNote] = useState<string | null>(null);

  useEffect(() => {
    let drawn: { kill(): void } | undefined;
    let cancelled = false;
    (async () => {
      const hop2 = await Promise.all(
        neighbours.slice(0, SECOND_HOP_FROM).map((n) =>
          api.get<{ nodes: Related[] }>(`/nodes/${encodeURIComponent(n.id)}/related?limit=${SECOND_HOP_EACH}`).then(
            (r) => ({ from: n.id, nodes: r.nodes }),
            () => ({ from: n.id, nodes: [] as Related[] }),
          ),
        ),
      );
      const { drawNeighbourhood } = await import('../graph/neighbourhood.js');
      if (cancelled || !box.current) return;
      const view = drawNeighbourhood(
        box.current,
        {
          center,
          first: neighbours.map((n) => ({ id: n.id, title: n.title, type: n.relationship_type })),
          second: hop2.flatMap((h) => h.nodes.map((n) => ({ from: h.from, id: n.id, title: n.title }))),
        },
        (id) => navigate(`/nodes/${encodeURIComponent(id)}`),
      );
      drawn = view;
      (window as unknown as { __rhizomeHood?: typeof view }).__rhizomeHood = view;
      setNote(`${view.order - 1} nodes within two hops`);
    })().catch((e) => setNote(`The graph could not be drawn: ${e instanceof Error ? e.message : String(e)}`));
    return () => {
      cancelled = true;
      drawn?.kill();
    };
  }, [center.id, neighbours.map((n) => n.id + n.relationship_type).join()]);

  if (neighbours.length === 0) return <p class="muted">No links yet, so no neighbourhood to draw.</p>;
  return (
    <figure class="graph-figure">
      <div ref={box} class="graph" role="img" aria-label={`Graph of ${center.title} and its neighbours: ${neighbours.map((n) => n.title).join(', ')}`} />
      {note && <figcaption class="hint">{note} · click a node to open it</figcaption>}
    </figure>
  );
}
