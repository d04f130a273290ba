// A new node, typed by hand.
import { NodeForm, type NodeDraft } from '../components/NodeForm.js';
import { clearDraft, draftKey } from '../editor/drafts.js';
import { linkInBackground } from '../editor/save-links.js';
import { PageHead } from '../components/ui.js';
import { api } from '../lib/api.js';
import { useAction } from '../lib/hooks.js';
import { navigate } from '../lib/router.js';
import { toast } from '../lib/toast.js';
import type { KNode } from '../lib/types.js';

export function NewNodePage({ title }: { title?: string }) {
  const create = useAction(async (d: NodeDraft) => {
    const body: Record<string, unknown> = { title: d.title, content: d.content, tags: d.tags };
    if (d.summary.trim()) body.summary = d.summary;
    if (d.para_item_ids.length) body.para_item_ids = d.para_item_ids;
    if (d.occurred) body.occurred_at = d.occurred;
    const node = await api.post<KNode>('/nodes', body);
    clearDraft(draftKey());
    toast('Node created');
    linkInBackground(node.id, d, toast);
    navigate(`/nodes/${encodeURIComponent(node.id)}`);
  });
  return (
    <div class="page page-narrow">
      <PageHead title="New node" sub="Write it down; search, links and PARA will find it a place." />
      <div class="card">
        <NodeForm initialTitle={title} draftKey={draftKey()} submitLabel="Create node" busy={create.busy} error={create.error} onSubmit={(d) => void create.run(d)} onCancel={() => (history.length > 1 ? history.back() : navigate('/'))} />
      </div>
    </div>
  );
}
