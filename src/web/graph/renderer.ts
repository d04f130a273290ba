// Sigma (WebGL) over the graphology graph, ForceAtlas2 in a web worker (the main thread only
// draws), labels placed by sigma's label grid (one label per grid cell, larger nodes first,
// more of them as you zoom in, so they never pile up), reducers for filters, hover and
// focus, and a re-fit whenever the container changes size. Timings go to
// `window.__rhizomeGraph` so the browser test (and anyone curious) can read them.
import type Graph from 'graphology';
import forceAtlas2 from 'graphology-layout-forceatlas2';
import Sigma from 'sigma';
import { FileWorkerFA2Layout } from './fa2-layout.js';
import { LabelPlacer } from './labels.js';
import type { GNode } from './model.js';

export interface GraphStats {
  nodes: number;
  edges: number;
  fetch_ms: number;
  build_ms: number;
  /** From the start of navigation to the first frame drawn with the graph. */
  first_frame_ms: number;
  /** Durations of the last frames sigma drew (ms). */
  renders: number[];
  layout_running: boolean;
}
declare global {
  interface Window {
    __rhizomeGraph?: GraphStats;
    __rhizomeGraphView?: ExplorerView;
  }
}

export interface ExplorerView {
  setColour(colourOf: (n: GNode) => string): void;
  setVisible(visible: (n: GNode) => boolean): void;
  focus(id: string | null): void;
  zoom(direction: 1 | -1): void;
  fit(): void;
  setLayoutRunning(on: boolean): void;
  layoutRunning(): boolean;
  /** The labels on screen now, as viewport rectangles (the browser test checks none overlap). */
  labelBoxes(): Array<{ id: string; x: number; y: number; w: number; h: number }>;
  kill(): void;
}

interface Options {
  onOpen(id: string): void;
  onLayoutChange(running: boolean): void;
  stats: GraphStats;
}

const LABEL_MAX = 40;
/** Layout time budget: long enough for 5k nodes to settle, then the worker stops. */
const layoutBudget = (n: number) => Math.min(2500 + n * 1.2, 12_000);

function themeColours() {
  const css = getComputedStyle(document.documentElement);
  const v = (name: string, d: string) => css.getPropertyValue(name).trim() || d;
  const dark = matchMedia('(prefers-color-scheme: dark)').matches;
  return {
    text: v('--text', '#1b201e'),
    surface: v('--surface', '#fff'),
    accent: v('--accent', '#0f766e'),
    edge: dark ? 'rgba(160,175,170,0.22)' : 'rgba(90,105,100,0.20)',
    faded: dark ? '#2f3735' : '#dfe3e1',
    font: getComputedStyle(document.body).fontFamily,
  };
}

export function createExplorer(container: HTMLElement, graph: Graph, opts: Options): ExplorerView {
  let theme = themeColours();
  const labels = new LabelPlacer(() => theme);
  let visible: (n: GNode) => boolean = () => true;
  let hovered: string | null = null;
  let focused: string | null = null;
  let active = new Set<string>();
  const recomputeActive = () => {
    const centre = hovered ?? focused;
    active = new Set(centre && graph.hasNode(centre) ? [centre, ...graph.neighbors(centre)] : []);
  };
  for (const id of graph.nodes()) {
    const t = graph.getNodeAttribute(id, 'label') as string;
    if (t.length > LABEL_MAX) graph.setNodeAttribute(id, 'label', t.slice(0, LABEL_MAX - 1) + '…');
  }

  const sigma = new Sigma(graph, container, {
    renderLabels: true,
    // A container laid out later (a phone view, a page still arranging) is fitted by the ResizeObserver below.
    allowInvalidContainer: true,
    labelDensity: 0.6,
    labelGridCellSize: 140,
    labelRenderedSizeThreshold: 7,
    labelSize: 13,
    labelWeight: '500',
    labelFont: theme.font,
    labelColor: { color: theme.text },
    defaultEdgeColor: theme.edge,
    minEdgeThickness: 0.6,
    zIndex: true,
    hideEdgesOnMove: graph.size > 20_000,
    minCameraRatio: 0.02,
    maxCameraRatio: 4,
    defaultDrawNodeLabel: labels.draw,
    defaultDrawNodeHover: (ctx, data, settings) => {
      const size = settings.labelSize;
      ctx.font = `600 ${size}px ${settings.labelFont}`;
      const label = typeof data.label === 'string' ? data.label : '';
      const w = ctx.measureText(label).width;
      ctx.fillStyle = theme.surface;
      ctx.shadowColor = 'rgba(0,0,0,.35)';
      ctx.shadowBlur = 6;
      ctx.beginPath();
      ctx.arc(data.x, data.y, data.size + 3, 0, Math.PI * 2);
      ctx.fill();
      if (label) ctx.fillRect(data.x + data.size + 3, data.y - size / 2 - 4, w + 10, size + 8);
      ctx.shadowBlur = 0;
      ctx.fillStyle = theme.text;
      if (label) ctx.fillText(label, data.x + data.size + 8, data.y + size / 3);
    },
    nodeReducer: (id, data) => {
      const n = data.node as GNode;
      if (!visible(n)) return { ...data, hidden: true };
      if (active.size === 0) return data;
      if (active.has(id)) return { ...data, forceLabel: true, zIndex: 2, highlighted: id === focused };
      return { ...data, color: theme.faded, label: '', zIndex: 0 };
    },
    edgeReducer: (id, data) => {
      if (active.size === 0) return data;
      const centre = hovered ?? focused;
      const [s, t] = graph.extremities(id);
      if (s === centre || t === centre) return { ...data, color: theme.accent, size: 1.5, zIndex: 1 };
      return { ...data, hidden: true };
    },
  });

  // Frame timings (the browser test reports them).
  let frameStart = 0;
  sigma.on('beforeRender', () => {
    frameStart = performance.now();
    labels.begin();
  });
  sigma.on('afterRender', () => {
    labels.end();
    const r = opts.stats.renders;
    r.push(performance.now() - frameStart);
    if (r.length > 600) r.shift();
    if (!opts.stats.first_frame_ms) opts.stats.first_frame_ms = performance.now();
  });

  sigma.on('enterNode', ({ node }) => {
    hovered = node;
    recomputeActive();
    container.style.cursor = 'pointer';
    sigma.refresh({ skipIndexation: true });
  });
  sigma.on('leaveNode', () => {
    hovered = null;
    recomputeActive();
    container.style.cursor = '';
    sigma.refresh({ skipIndexation: true });
  });
  sigma.on('clickNode', ({ node }) => opts.onOpen(node));

  // ForceAtlas2 off the main thread, for a bounded time.
  const layout = new FileWorkerFA2Layout(graph, { settings: { ...forceAtlas2.inferSettings(graph), adjustSizes: false } });
  let stopTimer: ReturnType<typeof setTimeout> | undefined;
  const setRunning = (on: boolean) => {
    clearTimeout(stopTimer);
    if (on) {
      layout.start();
      stopTimer = setTimeout(() => setRunning(false), layoutBudget(graph.order));
    } else layout.stop();
    opts.stats.layout_running = on;
    opts.onLayoutChange(on);
  };
  if (graph.size > 0) setRunning(true);

  // Re-fit when the container changes size (rotation, window resize, panel collapse).
  let lastW = container.clientWidth, lastH = container.clientHeight;
  const ro = new ResizeObserver(() => {
    const w = container.clientWidth, h = container.clientHeight;
    if (w === lastW && h === lastH) return;
    lastW = w;
    lastH = h;
    sigma.resize();
    void sigma.getCamera().animatedReset({ duration: 200 });
  });
  ro.observe(container);

  const dark = matchMedia('(prefers-color-scheme: dark)');
  const onTheme = () => {
    theme = themeColours();
    sigma.setSetting('labelColor', { color: theme.text });
    sigma.setSetting('defaultEdgeColor', theme.edge);
  };
  dark.addEventListener('change', onTheme);

  return {
    setColour(colourOf) {
      graph.updateEachNodeAttributes((_, a) => ({ ...a, color: colourOf(a.node as GNode) }), { attributes: ['color'] });
    },
    setVisible(v) {
      visible = v;
      sigma.refresh({ skipIndexation: true });
    },
    focus(id) {
      focused = id && graph.hasNode(id) ? id : null;
      recomputeActive();
      sigma.refresh({ skipIndexation: true });
      if (!focused) return;
      const d = sigma.getNodeDisplayData(focused);
      // Close enough to read the neighbourhood, not so close a small graph leaves the screen.
      const ratio = Math.min(sigma.getCamera().ratio, graph.order > 500 ? 0.25 : 0.7);
      if (d) void sigma.getCamera().animate({ x: d.x, y: d.y, ratio }, { duration: 500 });
    },
    zoom(direction) {
      const cam = sigma.getCamera();
      void (direction > 0 ? cam.animatedZoom({ duration: 250 }) : cam.animatedUnzoom({ duration: 250 }));
    },
    fit() {
      void sigma.getCamera().animatedReset({ duration: 300 });
    },
    setLayoutRunning: setRunning,
    layoutRunning: () => layout.isRunning(),
    labelBoxes: () => labels.boxes(),
    kill() {
      clearTimeout(stopTimer);
      ro.disconnect();
      dark.removeEventListener('change', onTheme);
      layout.kill();
      sigma.kill();
    },
  };
}
