// "Needs attention" on the home page (GET /graph-health/inbox): failed captures to retry,
// orphans to file, stale unvalidated nodes to review, and automatic PARA filings to confirm
// or refuse, each acted on in place.
import { useState } from 'preact/hooks';
import { Button, Problem } from '../components/ui.js';
import { api } from '../lib/api.js';
import { ago, plural } from '../lib/format.js';
import { useAction, useApi } from '../lib/hooks.js';
import { toast } from '../lib/toast.js';
import type { Inbox as InboxData, KNode } from '../lib/types.js';

const LIMIT = 5;

export function Inbox() {
  const { data, error, reload } = useApi<InboxData>(`/graph-health/inbox?limit=${LIMIT}`);
  const [done, setDone] = useState<Set<string>>(new Set());
  const hide = (key: string) => setDone((s) => new Set(s).add(key));

  const retry = useAction(async (id: string) => {
    await api.post(`/captures/${encodeURIComponent(id)}/retry`);
    hide(`c:${id}`);
    toast('Capture queued again');
  });
  // Listing an automatic association in the node's para_item_ids makes it the user's.
  const confirmFiling = useAction(async (nodeId: string, pid: string) => {
    const node = await api.get<KNode>(`/nodes/${encodeURIComponent(nodeId)}`);
    const ids = node.para_item_ids.includes(pid) ? node.para_item_ids : [...node.para_item_ids, pid];
    await api.patch(`/nodes/${encodeURIComponent(nodeId)}`, { para_item_ids: ids });
    hide(`a:${nodeId}:${pid}`);
    toast('Filing confirmed');
  });
  const refuseFiling = useAction(async (nodeId: string, pid: string) => {
    const node = await api.get<KNode>(`/nodes/${encodeURIComponent(nodeId)}`);
    await api.patch(`/nodes/${encodeURIComponent(nodeId)}`, { para_item_ids: node.para_item_ids.filter((x) => x !== pid) });
    hide(`a:${nodeId}:${pid}`);
    toast('Removed; it will not be filed there again');
  });

  if (error) return <Problem error={error} title="The inbox is not available" onRetry={reload} />;
  if (!data) return null;
  const c = data.counts;
  const total = c.failed_captures + c.orphans + c.stale + c.auto_filings;
  if (total === 0) {
    return (
      <section class="inbox inbox-clear" aria-labelledby="inbox-title">
        <h2 id="inbox-title">Needs attention</h2>
        <p class="muted">Nothing: no failed captures, no orphans, nothing stale, no filing to confirm.</p>
      </section>
    );
  }
  const failed = data.failed_captures.filter((x) => !done.has(`c:${x.id}`));
  const filings = data.auto_filings.filter((x) => !done.has(`a:${x.node_id}:${x.para_item_id}`));
  return (
    <section class="inbox" aria-labelledby="inbox-title">
      <div class="inbox-head">
        <h2 id="inbox-title">Needs attention</h2>
        <span class="muted">{plural(total, 'item')}</span>
      </div>
      <Problem error={retry.error ?? confirmFiling.error ?? refuseFiling.error} />
      <div class="inbox-grid">
        {c.failed_captures > 0 && (
          <Group title="Failed captures" count={c.failed_captures} more={{ href: '#/captures?status=failed', label: 'All failed captures' }}>
            {failed.map((f) => (
              <li key={f.id}>
                <a href={`#/captures/${encodeURIComponent(f.id)}`}>{f.title || f.url || 'Untitled capture'}</a>
                {f.error && <span class="inbox-why">{f.error}</span>}
                <span class="inbox-actions">
                  <Button size="sm" onClick={() => void retry.run(f.id)} busy={retry.busy}>
                    Retry<span class="sr-only"> {f.title || f.url || 'capture'}</span>
                  </Button>
                </span>
              </li>
            ))}
          </Group>
        )}
        {c.auto_filings > 0 && (
          <Group title="Filed automatically" count={c.auto_filings} hint="Confirm to keep, or refuse and it is never filed there again">
            {filings.map((a) => (
              <li key={`${a.node_id}:${a.para_item_id}`}>
                <a href={`#/nodes/${encodeURIComponent(a.node_id)}`}>{a.title}</a>
                <span class="inbox-why">
                  into <strong>{a.para_label}</strong>
                  {a.score !== null && <> · score {a.score.toFixed(2)}</>}
                </span>
                <span class="inbox-actions">
                  <Button size="sm" tone="primary" onClick={() => void confirmFiling.run(a.node_id, a.para_item_id)}>
                    Confirm<span class="sr-only"> {a.title} in {a.para_label}</span>
                  </Button>
                  <Button size="sm" tone="ghost" onClick={() => void refuseFiling.run(a.node_id, a.para_item_id)}>
                    Not this<span class="sr-only"> for {a.title}: not {a.para_label}</span>
                  </Button>
                </span>
              </li>
            ))}
          </Group>
        )}
        {c.orphans > 0 && (
          <Group title="Orphans" count={c.orphans} hint="In no PARA item" more={{ href: '#/?orphan=true', label: 'All orphans' }}>
            {data.orphans.map((n) => (
              <li key={n.id}>
                <a href={`#/nodes/${encodeURIComponent(n.id)}`}>{n.title}</a>
                <span class="inbox-why">updated {ago(n.updated_at)}</span>
              </li>
            ))}
          </Group>
        )}
        {c.stale > 0 && (
          <Group title="Stale" count={c.stale} hint="Not validated for 90+ days" more={{ href: '#/?status=raw', label: 'All unvalidated' }}>
            {data.stale.map((n) => (
              <li key={n.id}>
                <a href={`#/nodes/${encodeURIComponent(n.id)}`}>{n.title}</a>
                <span class="inbox-why">updated {ago(n.updated_at)}</span>
              </li>
            ))}
          </Group>
        )}
      </div>
    </section>
  );
}

function Group({ title, count, hint, more, children }: { title: string; count: number; hint?: string; more?: { href: string; label: string }; children: preact.ComponentChildren }) {
  return (
    <div class="inbox-group">
      <h3>
        {title} <span class="count-pill">{count.toLocaleString()}</span>
      </h3>
      {hint && <p class="muted small">{hint}</p>}
      <ul class="inbox-list">{children}</ul>
      {more && count > LIMIT && (
        <a class="small" href={more.href}>
          {more.label} →
        </a>
      )}
    </div>
  );
}
