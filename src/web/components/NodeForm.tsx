// Create and edit a node: title, summary, markdown content, tags, PARA items.
import { useState } from 'preact/hooks';
import { useParaItems } from '../lib/para.js';
import type { ApiError } from '../lib/api.js';
import type { KNode } from '../lib/types.js';
import { Button, Field, Problem } from './ui.js';

export interface NodeDraft {
  title: string;
  summary: string;
  content: string;
  tags: string[];
  para_item_ids: string[];
}

export function parseTags(s: string): string[] {
  return [...new Set(s.split(',').map((t) => t.trim().replace(/^#/, '')).filter(Boolean))];
}

export function NodeForm({ initial, submitLabel, busy, error, onSubmit, onCancel }: {
  initial?: KNode;
  submitLabel: string;
  busy: boolean;
  error: ApiError | null;
  onSubmit: (d: NodeDraft) => void;
  onCancel?: () => void;
}) {
  const { items, error: paraError } = useParaItems();
  const [title, setTitle] = useState(initial?.title ?? '');
  const [summary, setSummary] = useState(initial?.summary ?? '');
  const [content, setContent] = useState(initial?.body_markdown ?? '');
  const [tags, setTags] = useState((initial?.tags ?? []).join(', '));
  const [para, setPara] = useState<string[]>(initial?.para_item_ids ?? []);
  const assignable = items.filter((p) => p.status !== 'archived' || para.includes(p.id));

  return (
    <form
      class="form"
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit({ title: title.trim(), summary, content, tags: parseTags(tags), para_item_ids: para });
      }}
    >
      <Field label="Title" id="node-title">
        <input id="node-title" required maxLength={500} value={title} onInput={(e) => setTitle(e.currentTarget.value)} />
      </Field>
      <Field label="Summary" id="node-summary" hint="One or two sentences; shown in search results.">
        <textarea id="node-summary" rows={2} aria-describedby="node-summary-hint" value={summary} onInput={(e) => setSummary(e.currentTarget.value)} />
      </Field>
      <Field label="Content (Markdown)" id="node-content">
        <textarea id="node-content" class="mono" rows={14} value={content} onInput={(e) => setContent(e.currentTarget.value)} />
      </Field>
      <Field label="Tags" id="node-tags" hint="Separate with commas.">
        <input id="node-tags" aria-describedby="node-tags-hint" value={tags} onInput={(e) => setTags(e.currentTarget.value)} placeholder="reading, ideas" />
      </Field>
      <fieldset class="field">
        <legend>PARA items</legend>
        {paraError && <p class="hint">PARA items could not be loaded ({paraError.detail || paraError.title}).</p>}
        {!paraError && assignable.length === 0 && <p class="hint">No PARA items yet — create them on the PARA page.</p>}
        <div class="check-grid">
          {assignable.map((p) => (
            <label key={p.id} class="check">
              <input
                type="checkbox"
                checked={para.includes(p.id)}
                onChange={(e) => setPara(e.currentTarget.checked ? [...para, p.id] : para.filter((x) => x !== p.id))}
              />
              {p.label} <span class="muted">{p.category}</span>
            </label>
          ))}
        </div>
      </fieldset>
      <Problem error={error} />
      <div class="row">
        <Button type="submit" tone="primary" busy={busy}>
          {submitLabel}
        </Button>
        {onCancel && <Button onClick={onCancel}>Cancel</Button>}
      </div>
    </form>
  );
}
