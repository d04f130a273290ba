// The node page's neighbourhood (1–2 hops) on the same WebGL renderer as the explorer:
// fixed concentric positions (the node, its links on a ring, their links outside near
// their parent), labels that never overlap, a click opens a neighbour, and the camera
// re-fits whenever the panel changes size (a phone rotating, a column reflowing).
import Graph from 'graphology';
import Sigma from 'sigma';
import { LabelPlacer, type LabelBox } from './labels.js';

export interface Hood {
  center: { id: string; title: string };
  first: Array<{ id: string; title: string; type: string }>;
  second: Array<{ from: string; id: string; title: string }>;
}

export interface HoodView {
  labelBoxes(): LabelBox[];
  kill(): void;
}

const truncate = (s: string, n: number) => (s.length > n ? s.slice(0, n - 1) + '…' : s);

export function drawNeighbourhood(container: HTMLElement, hood: Hood, onOpen: (id: string) => void): HoodView & { order: number } {
  const css = getComputedStyle(document.documentElement);
  const v = (name: string, d: string) => css.getPropertyValue(name).trim() || d;
  const theme = () => ({ text: v('--text', '#1b201e'), surface: v('--surface', '#fff') });
  const g = new Graph({ type: 'undirected' });
  g.addNode(hood.center.id, { label: truncate(hood.center.title, 40), x: 0, y: 0, size: 11, color: v('--accent', '#0f766e'), forceLabel: true });
  const n1 = hood.first.length;
  const angle = new Map<string, number>();
  hood.first.forEach((n, i) => {
    const a = (i / Math.max(1, n1)) * Math.PI * 2;
    angle.set(n.id, a);
    if (!g.hasNode(n.id)) g.addNode(n.id, { label: truncate(n.title, 40), x: Math.cos(a), y: Math.sin(a), size: 7, color: v('--graph-node', '#5b8f89') });
    g.mergeEdge(hood.center.id, n.id, { size: 1.5, color: v('--border-strong', '#c7ccc6') });
  });
  const perParent = new Map<string, number>();
  for (const s of hood.second) {
    if (!g.hasNode(s.from) || s.id === s.from) continue;
    if (!g.hasNode(s.id)) {
      const k = perParent.get(s.from) ?? 0;
      perParent.set(s.from, k + 1);
      const a = (angle.get(s.from) ?? 0) + (k - 3.5) * (0.35 / Math.max(1, n1 / 6));
      g.addNode(s.id, { label: truncate(s.title, 32), x: 2 * Math.cos(a), y: 2 * Math.sin(a), size: 4, color: v('--graph-far', '#b5c4c1') });
    }
    g.mergeEdge(s.from, s.id, { size: 0.8, color: v('--border', '#e2e5e1') });
  }
  const labels = new LabelPlacer(theme, () => ({ width: container.clientWidth, height: container.clientHeight }));
  const sigma = new Sigma(g, container, {
    allowInvalidContainer: true,
    renderLabels: true,
    labelDensity: 1,
    labelGridCellSize: 80,
    labelRenderedSizeThreshold: 0,
    labelSize: 12,
    labelWeight: '500',
    labelFont: getComputedStyle(document.body).fontFamily,
    defaultDrawNodeLabel: labels.draw,
    minCameraRatio: 0.2,
    maxCameraRatio: 3,
  });
  sigma.on('beforeRender', () => labels.begin());
  sigma.on('afterRender', () => labels.end());
  sigma.on('clickNode', ({ node }) => node !== hood.center.id && onOpen(node));
  sigma.on('enterNode', () => (container.style.cursor = 'pointer'));
  sigma.on('leaveNode', () => (container.style.cursor = ''));
  const ro = new ResizeObserver(() => {
    sigma.resize();
    sigma.getCamera().setState({ x: 0.5, y: 0.5, ratio: 1, angle: 0 });
    sigma.refresh();
  });
  ro.observe(container);
  return {
    order: g.order,
    labelBoxes: () => labels.boxes(),
    kill() {
      ro.disconnect();
      sigma.kill();
    },
  };
}
