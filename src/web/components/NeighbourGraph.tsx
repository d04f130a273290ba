// The node's neighbourhood, 1–2 hops, drawn by cytoscape (loaded on demand: it is the
// largest part of the bundle and only this panel needs it). Click a node to open it.
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
    let cy: { destroy(): void } | undefined;
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
      const { default: cytoscape } = await import('cytoscape');
      if (cancelled || !box.current) return;
      const nodes = new Map<string, { id: string; label: string; hop: number }>();
      const edges = new Map<string, { source: string; target: string; label: string }>();
      nodes.set(center.id, { id: center.id, label: center.title, hop: 0 });
      for (const n of neighbours) {
        nodes.set(n.id, { id: n.id, label: n.title, hop: 1 });
        edges.set(key(center.id, n.id), { source: center.id, target: n.id, label: n.relationship_type.replace(/_/g, ' ') });
      }
      for (const h of hop2) {
        for (const n of h.nodes) {
          if (!nodes.has(n.id)) nodes.set(n.id, { id: n.id, label: n.title, hop: 2 });
          const k = key(h.from, n.id);
          if (!edges.has(k) && n.id !== h.from) edges.set(k, { source: h.from, target: n.id, label: '' });
        }
      }
      const css = getComputedStyle(document.documentElement);
      const v = (name: string) => css.getPropertyValue(name).trim();
      const font = getComputedStyle(document.body).fontFamily;
      cy = cytoscape({
        container: box.current,
        elements: [
          ...[...nodes.values()].map((n) => ({ data: { id: n.id, label: truncate(n.label, 48), hop: n.hop } })),
          ...[...edges.values()].map((e, i) => ({ data: { id: `e${i}`, ...e } })),
        ],
        layout: nodes.size > 2 ? { name: 'concentric', concentric: (n: { data(k: string): number }) => 3 - n.data('hop'), levelWidth: () => 1, minNodeSpacing: 60, padding: 24, animate: false } : { name: 'grid' },
        style: [
          { selector: 'node', style: { 'font-family': font, 'background-color': v('--graph-node'), label: 'data(label)', color: v('--text'), 'font-size': 11, 'text-valign': 'bottom', 'text-margin-y': 4, width: 14, height: 14, 'text-wrap': 'wrap', 'text-max-width': '150px' } },
          { selector: 'node[hop = 0]', style: { 'background-color': v('--accent'), width: 22, height: 22, 'font-weight': 'bold' } },
          { selector: 'node[hop = 2]', style: { 'background-color': v('--graph-far'), width: 10, height: 10, color: v('--text-muted') } },
          { selector: 'edge', style: { 'font-family': font, width: 1.5, 'line-color': v('--border-strong'), 'curve-style': 'bezier', label: 'data(label)', 'font-size': 9, color: v('--text-muted'), 'text-rotation': 'autorotate', 'text-background-color': v('--surface'), 'text-background-opacity': 1, 'text-background-padding': '1px' } },
        ],
        userZoomingEnabled: true,
        wheelSensitivity: 0.2,
        minZoom: 0.3,
        maxZoom: 2.5,
      });
      (cy as unknown as { on(ev: string, sel: string, fn: (e: { target: { id(): string } }) => void): void }).on('tap', 'node', (e) => {
        const id = e.target.id();
        if (id !== center.id) navigate(`/nodes/${encodeURIComponent(id)}`);
      });
      setNote(`${nodes.size - 1} nodes within two hops`);
    })().catch((e) => setNote(`The graph could not be drawn: ${e instanceof Error ? e.message : String(e)}`));
    return () => {
      cancelled = true;
      cy?.destroy();
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

const key = (a: string, b: string) => (a < b ? `${a}|${b}` : `${b}|${a}`);
const truncate = (s: string, n: number) => (s.length > n ? s.slice(0, n - 1) + '…' : s);
