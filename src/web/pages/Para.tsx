// PARA: projects, areas and resources with their node counts; create, complete/undo,
// archive/unarchive, match orphans to one item, and rescan all orphans (rate limited:
// the wait the server names in Retry-After is shown as a countdown and survives reloads).
import { useState } from 'preact/hooks';
import { Badge, Button, Card, Field, PageHead, Problem, Spinner, StatusBadge } from '../components/ui.js';
import { api } from '../lib/api.js';
import { duration } from '../lib/format.js';
import { useAction, useApi, useNow } from '../lib/hooks.js';
import { refreshPara } from '../lib/para.js';
import { toast } from '../lib/toast.js';
import { CATEGORIES, type ParaCategory, type ParaItem, type ParaTree } from '../lib/types.js';

const RESCAN_KEY = 'rhizome.rescanUntil';
const CATEGORY_HINT: Record<ParaCategory, string> = {
  projects: 'Short-term efforts with a goal and an end',
  areas: 'Ongoing responsibilities to maintain',
  resources: 'Topics of interest, for reference',
};

export function ParaPage() {
  const [showArchived, setShowArchived] = useState(false);
  const tree = useApi<ParaTree>(showArchived ? '/para/tree?include_archived=true' : '/para/tree');
  const after = () => {
    void tree.reload();
    void refreshPara();
  };

  const act = useAction(async (item: ParaItem, action: string, message: string) => {
    await api.post(`/para/${encodeURIComponent(item.id)}/${action}`);
    toast(message);
    after();
  });

  const byCategory = (cat: ParaCategory): ParaItem[] => (tree.data?.[cat] ?? []).filter((i) => showArchived || i.status !== 'archived');

  return (
    <div class="page">
      <PageHead
        title="PARA"
        sub="Projects, areas, resources — every node finds its place, or stays an orphan until one fits."
        actions={<Rescan onDone={after} />}
      />
      <div class="row between wrap">
        <CreateItem onCreated={after} />
      </div>
      <label class="check">
        <input type="checkbox" checked={showArchived} onChange={(e) => setShowArchived(e.currentTarget.checked)} /> Show archived items
      </label>
      <Problem error={tree.error} onRetry={tree.reload} />
      <Problem error={act.error} />
      {!tree.data && !tree.error && <Spinner />}
      {tree.data && (
        <div class="para-columns">
          {CATEGORIES.map((cat) => {
            const items = byCategory(cat);
            return (
              <Card key={cat} class="para-col" title={<span class="cap">{cat}</span>} actions={<Badge>{items.length}</Badge>}>
                <p class="hint">{CATEGORY_HINT[cat]}</p>
                {items.length === 0 ? (
                  <p class="muted">None yet.</p>
                ) : (
                  <ul class="para-list">
                    {items.map((item) => (
                      <li key={item.id} class={`para-item ${item.status}`}>
                        <div class="para-item-head">
                          <a href={`#/?para=${encodeURIComponent(item.id)}`} class="para-label">
                            {item.label}
                          </a>
                          <span class="count" title="Nodes in this item">
                            {(item.node_count ?? 0).toLocaleString()}
                          </span>
                        </div>
                        {item.description && <p class="para-desc">{item.description}</p>}
                        <div class="para-actions">
                          {item.status !== 'active' && <StatusBadge status={item.status} />}
                          <ItemActions item={item} busy={act.busy} run={(a, m) => void act.run(item, a, m)} />
                        </div>
                      </li>
                    ))}
                  </ul>
                )}
              </Card>
            );
          })}
        </div>
      )}
    </div>
  );
}

function ItemActions({ item, busy, run }: { item: ParaItem; busy: boolean; run: (action: string, message: string) => void }) {
  const b = (action: string, label: string, message: string, tone: 'default' | 'ghost' = 'default') => (
    <Button size="sm" tone={tone} disabled={busy} onClick={() => run(action, message)} aria-label={`${label}: ${item.label}`}>
      {label}
    </Button>
  );
  if (item.status === 'archived') return b('unarchive', 'Unarchive', `“${item.label}” restored`, 'default');
  return (
    <>
      {item.category === 'projects' && item.status === 'active' && b('complete', 'Complete', `“${item.label}” completed`)}
      {item.status === 'completed' && b('undo-complete', 'Undo complete', `“${item.label}” is active again`)}
      {item.status === 'active' && b('match', 'Match orphans', `Matching orphans to “${item.label}” in the background`)}
      {b('archive', 'Archive', `“${item.label}” archived`)}
    </>
  );
}

function CreateItem({ onCreated }: { onCreated: () => void }) {
  const [category, setCategory] = useState<ParaCategory>('projects');
  const [label, setLabel] = useState('');
  const [description, setDescription] = useState('');
  const create = useAction(async () => {
    await api.post('/para', { category, label: label.trim(), ...(description.trim() ? { description: description.trim() } : {}) });
    toast(`“${label.trim()}” created; orphans are being reclassified`);
    setLabel('');
    setDescription('');
    onCreated();
  });
  return (
    <Card title="New item" class="grow">
      <form class="form-inline" onSubmit={(e) => (e.preventDefault(), void create.run())}>
        <Field label="Category" id="para-category">
          <select id="para-category" value={category} onChange={(e) => setCategory(e.currentTarget.value as ParaCategory)}>
            {CATEGORIES.map((c) => (
              <option key={c} value={c} class="cap">
                {c[0].toUpperCase() + c.slice(1, -1)}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Label" id="para-label">
          <input id="para-label" required maxLength={200} value={label} onInput={(e) => setLabel(e.currentTarget.value)} />
        </Field>
        <Field label="Description (optional)" id="para-desc">
          <input id="para-desc" value={description} onInput={(e) => setDescription(e.currentTarget.value)} />
        </Field>
        <Button type="submit" tone="primary" busy={create.busy}>
          Create
        </Button>
      </form>
      <Problem error={create.error} />
    </Card>
  );
}

function Rescan({ onDone }: { onDone: () => void }) {
  const [until, setUntil] = useState(() => Number(localStorage.getItem(RESCAN_KEY)) || 0);
  const now = useNow(until > Date.now());
  const wait = Math.max(0, Math.ceil((until - now) / 1000));
  const rescan = useAction(async () => {
    try {
      const r = await api.post<{ queued: number }>('/para/rescan');
      toast(`${r.queued} orphan node${r.queued === 1 ? '' : 's'} queued for reclassification`);
      onDone();
    } catch (e) {
      const err = e as { status?: number; retryAfter?: number | null };
      if (err.status === 429 && err.retryAfter) {
        const t = Date.now() + err.retryAfter * 1000;
        localStorage.setItem(RESCAN_KEY, String(t));
        setUntil(t);
      }
      throw e;
    }
  });
  return (
    <div class="rescan">
      <Button busy={rescan.busy} disabled={wait > 0} onClick={() => void rescan.run()} aria-describedby="rescan-note">
        Rescan orphans
      </Button>
      <span id="rescan-note" class="hint" role="status">
        {wait > 0 ? `Rate limited: available again in ${duration(wait)}` : 'Once per 5 minutes'}
      </span>
      {rescan.error && rescan.error.status !== 429 && <Problem error={rescan.error} />}
    </div>
  );
}
