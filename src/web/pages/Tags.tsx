// Tags: every tag with how many nodes carry it; rename one, merge it into another (a rename
// onto an existing name merges the two on the server), or remove it from every node.
import { useMemo, useState } from 'preact/hooks';
import { Button, Card, Empty, PageHead, Problem, Spinner } from '../components/ui.js';
import { api, qs } from '../lib/api.js';
import { plural } from '../lib/format.js';
import { useAction, useApi } from '../lib/hooks.js';
import { toast } from '../lib/toast.js';
import type { Tag } from '../lib/types.js';
import '../styles/tags.css';

type Sort = 'count' | 'name';

export function TagsPage() {
  const list = useApi<{ data: Tag[] }>('/tags');
  const [filter, setFilter] = useState('');
  const [sort, setSort] = useState<Sort>('count');
  const [editing, setEditing] = useState<string | null>(null);
  const tags = useMemo(() => {
    const f = filter.trim().toLowerCase();
    const all = (list.data?.data ?? []).filter((t) => !f || t.name.toLowerCase().includes(f));
    return sort === 'name' ? [...all].sort((a, b) => a.name.localeCompare(b.name)) : all;
  }, [list.data, filter, sort]);

  const remove = useAction(async (t: Tag) => {
    if (!confirm(`Remove the tag “${t.name}” from ${plural(t.count, 'node')}? The nodes stay.`)) return;
    await api.del(`/tags/${encodeURIComponent(t.name)}`);
    toast(`Removed “${t.name}”`);
    await list.reload();
  });

  const total = list.data?.data.length ?? 0;
  return (
    <div class="page">
      <PageHead title="Tags" sub={list.data ? `${plural(total, 'tag')} across your nodes. Rename one onto another to merge them.` : 'Every tag and how many nodes carry it.'} />
      <Problem error={list.error} onRetry={list.reload} />
      <Problem error={remove.error} />
      {!list.data && !list.error && <Spinner />}
      {list.data && total === 0 && (
        <Empty title="No tags yet">
          <p>Tags you give nodes (or that captures bring) show up here.</p>
        </Empty>
      )}
      {list.data && total > 0 && (
        <Card>
          <div class="row between tags-tools">
            <label class="inline-field grow">
              <span>Filter</span>
              <input type="search" value={filter} placeholder="Find a tag" onInput={(e) => setFilter(e.currentTarget.value)} />
            </label>
            <label class="inline-field">
              <span>Sort by</span>
              <select value={sort} onChange={(e) => setSort(e.currentTarget.value as Sort)}>
                <option value="count">Most used</option>
                <option value="name">Name</option>
              </select>
            </label>
          </div>
          <ul class="tag-list" aria-label="Tags">
            {tags.map((t) =>
              editing === t.name ? (
                <RenameRow key={t.name} tag={t} all={list.data!.data} onDone={(changed) => { setEditing(null); if (changed) void list.reload(); }} />
              ) : (
                <li key={t.name} class="tag-row">
                  <a class="tag-name" href={'#/' + qs({ tag: t.name })} title={`Nodes tagged ${t.name}`}>
                    #{t.name}
                  </a>
                  <span class="tag-count">{plural(t.count, 'node')}</span>
                  <span class="tag-actions">
                    <Button size="sm" onClick={() => setEditing(t.name)}>
                      Rename / merge<span class="sr-only"> {t.name}</span>
                    </Button>
                    <Button size="sm" tone="ghost" onClick={() => void remove.run(t)}>
                      Remove<span class="sr-only"> {t.name} from every node</span>
                    </Button>
                  </span>
                </li>
              ),
            )}
            {tags.length === 0 && <li class="muted">No tag contains “{filter}”.</li>}
          </ul>
        </Card>
      )}
    </div>
  );
}

function RenameRow({ tag, all, onDone }: { tag: Tag; all: Tag[]; onDone: (changed: boolean) => void }) {
  const [name, setName] = useState(tag.name);
  const target = all.find((t) => t.name === name.trim() && t.name !== tag.name);
  const save = useAction(async () => {
    const next = name.trim();
    if (!next || next === tag.name) return onDone(false);
    if (target && !confirm(`Merge “${tag.name}” into “${target.name}”? ${plural(tag.count, 'node')} will carry “${target.name}” instead.`)) return;
    await api.patch(`/tags/${encodeURIComponent(tag.name)}`, { name: next });
    toast(target ? `Merged “${tag.name}” into “${next}”` : `Renamed to “${next}”`);
    onDone(true);
  });
  const id = `rename-${tag.name}`;
  return (
    <li class="tag-row editing">
      <form
        class="tag-rename"
        onSubmit={(e) => {
          e.preventDefault();
          void save.run();
        }}
        onKeyDown={(e) => e.key === 'Escape' && onDone(false)}
      >
        <label for={id} class="sr-only">
          New name for {tag.name}
        </label>
        <input id={id} list="tag-names" value={name} maxLength={100} autoFocus onInput={(e) => setName(e.currentTarget.value)} />
        <datalist id="tag-names">
          {all.filter((t) => t.name !== tag.name).map((t) => (
            <option key={t.name} value={t.name} />
          ))}
        </datalist>
        <Button type="submit" size="sm" tone="primary" busy={save.busy}>
          {target ? 'Merge' : 'Rename'}
        </Button>
        <Button size="sm" tone="ghost" onClick={() => onDone(false)}>
          Cancel
        </Button>
        {target && <span class="muted small">“{tag.name}” ({tag.count}) joins “{target.name}” ({target.count})</span>}
      </form>
      <Problem error={save.error} />
    </li>
  );
}
