// A node's typed links: list, remove, add by title; plus suggestions to accept in one click.
// PATCH /nodes/:id/links replaces the whole set, so every change sends existing + new.
import { useEffect, useState } from 'preact/hooks';
import { api, qs, type ApiError } from '../lib/api.js';
import { useAction, useApi } from '../lib/hooks.js';
import { humanize } from '../lib/format.js';
import { toast } from '../lib/toast.js';
import { LINK_TYPES, type KNode, type Related, type SearchPage, type Suggestion } from '../lib/types.js';
import { Button, Problem } from './ui.js';

type LinkInput = { target_id: string; type: string };

export function useLinkSetter(nodeId: string, _links: Related[], after: () => void) {
  return useAction(async (next: LinkInput[], message: string) => {
    await api.patch(`/nodes/${encodeURIComponent(nodeId)}/links`, { links: next });
    toast(message);
    after();
  });
}

const current = (links: Related[]): LinkInput[] => links.map((l) => ({ target_id: l.id, type: l.relationship_type }));

export function LinksPanel({ node, links, error, reload }: { node: KNode; links: Related[]; error: ApiError | null; reload: () => void }) {
  const setter = useLinkSetter(node.id, links, reload);
  const [adding, setAdding] = useState(false);
  return (
    <div>
      <Problem error={error} />
      {!error && links.length === 0 && <p class="muted">No links yet.</p>}
      {links.length > 0 && (
        <ul class="link-list">
          {links.map((l) => (
            <li key={l.id + l.relationship_type}>
              <span class="link-type">{humanize(l.relationship_type)}</span>
              <a href={`#/nodes/${encodeURIComponent(l.id)}`}>{l.title}</a>
              <button
                class="icon-btn"
                aria-label={`Remove link to ${l.title}`}
                title="Remove link"
                disabled={setter.busy}
                onClick={() => void setter.run(current(links).filter((x) => x.target_id !== l.id), `Link to “${l.title}” removed`)}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <Problem error={setter.error} />
      {adding ? (
        <AddLink node={node} links={links} busy={setter.busy} onAdd={(t, type, title) => void setter.run([...current(links), { target_id: t, type }], `Linked to “${title}”`).then(() => setAdding(false))} onCancel={() => setAdding(false)} />
      ) : (
        <Button size="sm" onClick={() => setAdding(true)} disabled={!!error && error.status === 404}>
          Add link
        </Button>
      )}
    </div>
  );
}

function AddLink({ node, links, busy, onAdd, onCancel }: { node: KNode; links: Related[]; busy: boolean; onAdd: (id: string, type: string, title: string) => void; onCancel: () => void }) {
  const [q, setQ] = useState('');
  const [type, setType] = useState<string>('related');
  const [hits, setHits] = useState<KNode[]>([]);
  useEffect(() => {
    if (!q.trim()) return setHits([]);
    const t = setTimeout(() => {
      api.get<SearchPage>('/nodes' + qs({ query: q, mode: 'hybrid', per_page: 8 })).then(
        (r) => setHits(r.data.filter((n) => n.id !== node.id && !links.some((l) => l.id === n.id))),
        () => setHits([]),
      );
    }, 200);
    return () => clearTimeout(t);
  }, [q]);
  return (
    <div class="add-link">
      <div class="row">
        <label class="inline-field">
          <span>Type</span>
          <select value={type} onChange={(e) => setType(e.currentTarget.value)}>
            {LINK_TYPES.map((t) => (
              <option key={t} value={t}>
                {humanize(t)}
              </option>
            ))}
          </select>
        </label>
        <label class="inline-field grow">
          <span>Find node</span>
          <input value={q} onInput={(e) => setQ(e.currentTarget.value)} placeholder="Title or words" autoFocus />
        </label>
      </div>
      <ul class="pick-list">
        {hits.map((h) => (
          <li key={h.id}>
            <span>{h.title}</span>
            <Button size="sm" busy={busy} onClick={() => onAdd(h.id, type, h.title)}>
              Link
            </Button>
          </li>
        ))}
      </ul>
      <Button size="sm" tone="ghost" onClick={onCancel}>
        Done
      </Button>
    </div>
  );
}

export function Suggestions({ node, links, reload }: { node: KNode; links: Related[]; reload: () => void }) {
  // The text travels in the query string: the API takes 10,000 characters, but a URL that
  // long (×3 once percent-encoded) would exceed Node's 16 KB header limit, so send the
  // title, summary and the start of the body, which carry most of the signal.
  const text = [node.title, node.summary, node.body_markdown].filter(Boolean).join('\n\n').slice(0, 1500);
  const { data, error } = useApi<{ suggestions: Suggestion[] }>(`/links/suggestions?text=${encodeURIComponent(text)}`);
  const setter = useLinkSetter(node.id, links, reload);
  const list = (data?.suggestions ?? []).filter((s) => s.node_id !== node.id && !links.some((l) => l.id === s.node_id)).slice(0, 8);
  if (error) return <Problem error={error} title="Suggestions are not available" />;
  if (!data) return <p class="muted">Looking for related nodes…</p>;
  if (list.length === 0) return <p class="muted">No suggestions: nothing else is close enough.</p>;
  return (
    <>
      <ul class="suggestions">
        {list.map((s) => (
          <li key={s.node_id}>
            <a href={`#/nodes/${encodeURIComponent(s.node_id)}`}>{s.title}</a>
            <span class="meter" title={`Score ${s.score.toFixed(2)}`}>
              <span style={{ width: `${Math.round(Math.max(0, Math.min(1, s.score)) * 100)}%` }} />
            </span>
            <Button
              size="sm"
              busy={setter.busy}
              aria-label={`Link to ${s.title}`}
              onClick={() => void setter.run([...current(links), { target_id: s.node_id, type: 'related' }], `Linked to “${s.title}”`)}
            >
              Link
            </Button>
          </li>
        ))}
      </ul>
      <Problem error={setter.error} />
    </>
  );
}
