// Graph health at a glance: six counters, with the ones that need attention highlighted.
import { useApi } from '../lib/hooks.js';
import type { Health } from '../lib/types.js';
import { Problem } from './ui.js';

export function HealthStrip() {
  const { data, error } = useApi<Health>('/graph-health', { pollMs: 15_000 });
  if (error) return <Problem error={error} title="Graph health is not available" />;
  const h = data;
  const pct = h && h.total_nodes ? Math.round((h.validated_nodes / h.total_nodes) * 100) : 0;
  const cells: Array<{ label: string; value: string; note?: string; warn?: boolean; href?: string }> = [
    { label: 'Nodes', value: fmt(h?.total_nodes), note: h ? `${pct}% validated` : undefined },
    { label: 'Validated', value: fmt(h?.validated_nodes), href: '#/?status=validated' },
    { label: 'Links', value: fmt(h?.total_links), note: h && h.total_nodes ? `${(h.total_links / h.total_nodes).toFixed(1)} per node` : undefined },
    { label: 'Captures', value: fmt(h?.total_captures), href: '#/captures' },
    { label: 'In the queue', value: fmt(h?.pending_captures), warn: !!h?.pending_captures, href: '#/captures?status=pending' },
    { label: 'Stale', value: fmt(h?.stale_nodes), note: 'unvalidated, 90+ days', warn: !!h?.stale_nodes },
  ];
  return (
    <section class="health" aria-label="Graph health">
      {cells.map((c) => {
        const inner = (
          <>
            <span class="health-value">{c.value}</span>
            <span class="health-label">{c.label}</span>
            {c.note && <span class="health-note">{c.note}</span>}
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
