// One node: its rendered body, status, tags, PARA items, links, neighbourhood graph and
// link suggestions; Edit turns the body into a form.
import { useState } from 'preact/hooks';
import { Markdown } from '../components/Markdown.js';
import { LinksPanel, Suggestions } from '../components/LinksPanel.js';
import { NeighbourGraph } from '../components/NeighbourGraph.js';
import { NodeForm, type NodeDraft } from '../components/NodeForm.js';
import { NodeCapture } from '../captures/NodeCapture.js';
import { clearDraft, draftKey, hasDraft } from '../editor/drafts.js';
import { linkInBackground } from '../editor/save-links.js';
import { Badge, Button, Card, Problem, Spinner } from '../components/ui.js';
import { Missing } from '../components/Missing.js';
import { api } from '../lib/api.js';
import { ago, fullTime } from '../lib/format.js';
import { useAction, useApi } from '../lib/hooks.js';
import { useParaItems } from '../lib/para.js';
import { navigate } from '../lib/router.js';
import { toast } from '../lib/toast.js';
import type { KNode, NodeStatus, Related } from '../lib/types.js';
import { usePassageMark } from '../ask/usePassageMark.js';

const STATUSES: Array<{ value: NodeStatus; label: string }> = [
  { value: 'raw', label: 'Raw' },
  { value: 'validated', label: 'Validated' },
  { value: 'dismissed', label: 'Dismissed' },
];

/** `passage`: `start-end` in the body, marked and scrolled to (where an answer's citation leads). */
export function NodePage({ id, passage }: { id: string; passage?: string | null }) {
  const path = `/nodes/${encodeURIComponent(id)}`;
  const { data: node, error, setData, reload } = useApi<KNode>(path);
  const related = useApi<{ nodes: Related[] }>(`${path}/related?limit=500`);
  const { byId } = useParaItems();
  const [editing, setEditing] = useState(() => hasDraft(id));
  usePassageMark(passage, node?.body_markdown, editing);

  const save = useAction(async (d: NodeDraft) => {
    const n = node!;
    const patch: Record<string, unknown> = {};
    if (d.title !== n.title) patch.title = d.title;
    if (d.summary !== n.summary) patch.summary = d.summary;
    if (d.content !== n.body_markdown) patch.content = d.content;
    if (d.tags.join('\u0000') !== n.tags.join('\u0000')) patch.tags = d.tags;
    if ([...d.para_item_ids].sort().join() !== [...n.para_item_ids].sort().join()) patch.para_item_ids = d.para_item_ids;
    if (d.occurred !== (n.occurred_at?.slice(0, 10) ?? '')) patch.occurred_at = d.occurred || null;
    if (Object.keys(patch).length) setData(await api.patch<KNode>(path, patch));
    clearDraft(draftKey(id));
    setEditing(false);
    toast('Saved');
    linkInBackground(id, d, toast, related.reload);
  });
  const setStatus = useAction(async (status: NodeStatus) => {
    setData(await api.patch<KNode>(path, { status }));
    toast(`Marked ${status}`);
  });
  // "Not this": removes one automatic filing; the classifier remembers and never files it there again.
  const reject = useAction(async (pid: string) => {
    setData(await api.patch<KNode>(path, { para_item_ids: node!.para_item_ids.filter((x) => x !== pid) }));
    toast('Removed; it will not be filed there again');
  });
  const remove = useAction(async () => {
    if (!confirm(`Delete “${node!.title}”? Its links go with it.`)) return;
    await api.del(path);
    toast('Node deleted');
    navigate('/');
  });

  if (error?.status === 404) return <Missing what="node" back={{ href: '#/', label: 'Back to search' }} create={{ href: '#/nodes/new', label: 'New node' }} />;
  if (error) return <div class="page"><Problem error={error} onRetry={reload} /></div>;
  if (!node) return <div class="page"><Spinner /></div>;
  const links = related.data?.nodes ?? [];

  return (
    <div class="page page-node">
      <nav class="crumbs" aria-label="Breadcrumb">
        <a href="#/">Search</a> <span aria-hidden="true">/</span> <span>Node</span>
      </nav>
      <header class="node-head">
        <h1>{node.title}</h1>
        <div class="node-meta">
          <span title={fullTime(node.updated_at)}>Updated {ago(node.updated_at)}</span>
          <span aria-hidden="true">·</span>
          <span title={fullTime(node.created_at)}>created {ago(node.created_at)}</span>
          {node.occurred_at && (
            <>
              <span aria-hidden="true">·</span>
              <span title={fullTime(node.occurred_at)}>happened on {node.occurred_at.slice(0, 10)}</span>
            </>
          )}
        </div>
        <NodeCapture nodeId={node.id} />
        <div class="node-actions">
          <div class="segmented" role="group" aria-label="Status">
            {STATUSES.map((s) => (
              <button key={s.value} class={node.status === s.value ? 'on' : ''} aria-pressed={node.status === s.value} disabled={setStatus.busy} onClick={() => node.status !== s.value && void setStatus.run(s.value)}>
                {s.label}
              </button>
            ))}
          </div>
          <a class="btn btn-default btn-md" href={`#${path}/read`}>Read{node.annotations?.length ? ` · ${node.annotations.length} highlight${node.annotations.length === 1 ? '' : 's'}` : ''}</a>
          {!editing && <Button onClick={() => setEditing(true)}>Edit</Button>}
          <Button tone="danger" busy={remove.busy} onClick={() => void remove.run()}>
            Delete
          </Button>
        </div>
        <Problem error={setStatus.error ?? remove.error} />
      </header>

      <div class="node-grid">
        <div class="node-main">
          {editing ? (
            <Card title="Edit node">
              <NodeForm initial={node} draftKey={draftKey(id)} submitLabel="Save" busy={save.busy} error={save.error} onSubmit={(d) => void save.run(d)} onCancel={() => setEditing(false)} />
            </Card>
          ) : (
            <Card>
              {node.summary && <p class="lead">{node.summary}</p>}
              {node.body_markdown ? <Markdown source={node.body_markdown} /> : <p class="muted">No content yet. <button class="linklike" onClick={() => setEditing(true)}>Write some</button>.</p>}
            </Card>
          )}
          <Card title="Neighbourhood">
            {related.data ? <NeighbourGraph center={node} neighbours={links} /> : related.error ? <Problem error={related.error} title="Links are not available" /> : <Spinner />}
          </Card>
        </div>
        <aside class="node-side">
          <Card title="PARA">
            {node.para_item_ids.length ? (
              <div class="chips">
                {node.para_item_ids.map((p) => {
                  const a = node.para_assignments?.find((x) => x.para_item_id === p);
                  return (
                    <span key={p} class="para-assignment">
                      <a href={`#/?para=${encodeURIComponent(p)}`} class="badge badge-para">
                        {byId.get(p)?.label ?? p}
                      </a>
                      {a?.source === 'auto' && (
                        <>
                          <span class="muted auto-score" title={`Filed automatically (${a.method ?? 'classifier'})`}>
                            auto · {(a.score ?? 0).toFixed(2)}
                          </span>
                          <button class="linklike" title="Remove this automatic filing; it will not be made again" disabled={reject.busy} onClick={() => void reject.run(p)}>
                            not this
                          </button>
                        </>
                      )}
                    </span>
                  );
                })}
              </div>
            ) : (
              <p class="muted">Orphan: in no project, area or resource. <button class="linklike" onClick={() => setEditing(true)}>Assign</button></p>
            )}
          </Card>
          <Card title="Tags">
            {node.tags.length ? (
              <div class="chips">
                {node.tags.map((t) => (
                  <a key={t} class="tag" href={`#/?q=${encodeURIComponent(t)}&mode=keyword`}>
                    #{t}
                  </a>
                ))}
              </div>
            ) : (
              <p class="muted">No tags.</p>
            )}
          </Card>
          <Card title={<>Links {links.length > 0 && <Badge>{links.length}</Badge>}</>}>
            <LinksPanel node={node} links={links} error={related.error} reload={related.reload} />
          </Card>
          <Card title="Suggested links">
            <Suggestions node={node} links={links} reload={related.reload} />
          </Card>
        </aside>
      </div>
    </div>
  );
}
