// What a pipeline stage produced, readable at a glance: scalars as a definition list,
// lists as lines, deeper structure as compact JSON.
import type { ComponentChildren } from 'preact';
import { humanize } from '../lib/format.js';

const isScalar = (v: unknown) => v === null || ['string', 'number', 'boolean'].includes(typeof v);

function scalar(v: unknown): string {
  if (v === null || v === undefined) return '—';
  if (typeof v === 'number') return Number.isInteger(v) ? v.toLocaleString() : v.toFixed(3);
  return String(v);
}

function inline(o: Record<string, unknown>): string {
  return Object.entries(o)
    .map(([k, v]) => (isScalar(v) ? `${humanize(k)}: ${scalar(v)}` : `${humanize(k)}: ${JSON.stringify(v)}`))
    .join(' · ');
}

function value(v: unknown): ComponentChildren {
  if (isScalar(v)) return scalar(v);
  if (Array.isArray(v)) {
    if (v.length === 0) return <span class="muted">none</span>;
    if (v.every(isScalar)) return v.map(scalar).join(', ');
    return (
      <ul class="kv-list">
        {v.slice(0, 12).map((item, i) => (
          <li key={i}>{item && typeof item === 'object' ? inline(item as Record<string, unknown>) : scalar(item)}</li>
        ))}
        {v.length > 12 && <li class="muted">…and {v.length - 12} more</li>}
      </ul>
    );
  }
  return <code class="kv-json">{JSON.stringify(v)}</code>;
}

export function StageOutput({ output }: { output: unknown }) {
  if (output === null || output === undefined || output === '') return null;
  if (typeof output === 'string') return <pre class="stage-output">{output}</pre>;
  if (typeof output !== 'object' || Array.isArray(output)) return <div class="stage-output">{value(output)}</div>;
  const entries = Object.entries(output as Record<string, unknown>);
  if (entries.length === 0) return null;
  return (
    <dl class="stage-output kv">
      {entries.map(([k, v]) => (
        <div key={k} class="kv-row">
          <dt>{humanize(k)}</dt>
          <dd>{value(v)}</dd>
        </div>
      ))}
    </dl>
  );
}
