// Graph health at a glance: the live counters, each over a small chart of its daily
// snapshots (GET /graph-health/history), with the ones that need attention highlighted.
import { useApi } from '../lib/hooks.js';
import type { Health, HealthHistory, HealthSnapshot } from '../lib/types.js';
import { Problem } from '../components/ui.js';
import { Sparkline, type Point } from './Sparkline.js';
import '../styles/home.css';

const DAYS = 30;

interface Cell {
  label: string;
  value: string;
  note?: string;
  warn?: boolean;
  href?: string;
  chart?: preact.ComponentChildren;
}

export function HealthStrip() {
  const { data: h, error } = useApi<Health>('/graph-health', { pollMs: 15_000 });
  // The history is read once per visit: its last row is today's, refreshed by this read.
  const { data: hist } = useApi<HealthHistory>(`/graph-health/history?days=${DAYS}`);
  if (error) return <Problem error={error} title="Graph health is not available" />;
  const days = hist?.days ?? [];
  const series = (f: (d: HealthSnapshot) => number | null): Point[] =>
    days.flatMap((d) => {
      const v = f(d);
      return v === null ? [] : [{ day: d.day, value: v }];
    });
  const pct = (a: number, b: number) => (b ? Math.round((a / b) * 100) : 0);
  const failedToday = days.length ? days[days.length - 1].failed_captures : 0;
  const chart = (points: Point[], label: string, format?: (v: number) => string, extra?: Partial<Parameters<typeof Sparkline>[0]>) => (
    <Sparkline points={points} label={`${label}, last ${DAYS} days`} days={DAYS} format={format} {...extra} />
  );
  const cells: Cell[] = [
    { label: 'Nodes', value: fmt(h?.total_nodes), note: h ? `${fmt(h.total_nodes - h.validated_nodes)} not validated` : undefined, chart: chart(series((d) => d.total_nodes), 'Nodes') },
    {
      label: 'Validated',
      value: h ? `${pct(h.validated_nodes, h.total_nodes)}%` : '–',
      note: h ? `${fmt(h.validated_nodes)} nodes` : undefined,
      href: '#/?status=validated',
      chart: chart(series((d) => (d.total_nodes ? pct(d.validated_nodes, d.total_nodes) : null)), 'Validated share', (v) => `${v}%`),
    },
    {
      label: 'Links per node',
      value: h ? (h.total_nodes ? (h.total_links / h.total_nodes).toFixed(1) : '0') : '–',
      note: h ? `${fmt(h.total_links)} links` : undefined,
      href: '#/graph',
      chart: chart(series((d) => (d.total_nodes ? Math.round((d.total_links / d.total_nodes) * 10) / 10 : null)), 'Links per node', (v) => v.toFixed(1)),
    },
    {
      label: 'Captures',
      value: fmt(h?.total_captures),
      note: failedToday ? `${fmt(failedToday)} failed` : h?.pending_captures ? `${fmt(h.pending_captures)} in the queue` : 'none failed',
      warn: failedToday > 0,
      href: failedToday ? '#/captures?status=failed' : '#/captures',
      chart: chart(series((d) => d.total_captures), 'Captures', undefined, {
        second: { points: series((d) => d.failed_captures), tone: 'danger', label: 'failed' },
      }),
    },
    {
      label: 'Stale',
      value: fmt(h?.stale_nodes),
      note: 'unvalidated, 90+ days',
      warn: !!h?.stale_nodes,
      chart: chart(series((d) => d.stale_nodes), 'Stale nodes', undefined, { tone: 'warn' }),
    },
    { label: 'In the queue', value: fmt(h?.pending_captures), warn: !!h?.pending_captures, note: 'captures pending', href: '#/captures?status=pending' },
  ];
  return (
    <section class="health" aria-label="Graph health">
      {cells.map((c) => {
        const inner = (
          <>
            <span class="health-value">{c.value}</span>
            <span class="health-label">{c.label}</span>
            {c.note && <span class="health-note">{c.note}</span>}
            {c.chart && <span class="health-chart">{c.chart}</span>}
          </>
        );
        return c.href ? (
          <a key={c.label} href={c.href} class={`health-cell ${c.warn ? 'warn' : ''}`}>
            {inner}
          </a>
        ) : (
          <div key={c.label} class={`health-cell ${c.warn ? 'warn' : ''}`}>
            {inner}
          </div>
        );
      })}
    </section>
  );
}

const fmt = (n: number | undefined) => (n === undefined ? '–' : n.toLocaleString());
