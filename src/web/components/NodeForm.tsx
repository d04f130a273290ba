// Create and edit a node: title, summary, Markdown content in the editor with a live
// preview, tags with completion, PARA items. Keeps a draft in localStorage as you type.
import { useEffect, useRef, useState } from 'preact/hooks';
import { MarkdownEditor, type EditorHandle } from '../editor/MarkdownEditor.js';
import { TagInput } from '../editor/TagInput.js';
import { clearDraft, loadDraft, saveDraft, type EditorDraft } from '../editor/drafts.js';
import { DEFAULT_LINK_TYPE, LINK_TYPES } from '../editor/save-links.js';
import { useUploads } from '../editor/uploads.js';
import { api, qs } from '../lib/api.js';
import { useParaItems } from '../lib/para.js';
import type { ApiError } from '../lib/api.js';
import type { KNode } from '../lib/types.js';
import { Markdown } from './Markdown.js';
import { Button, Field, Problem } from './ui.js';
import '../styles/editor.css';

export interface NodeDraft {
  title: string;
  summary: string;
  content: string;
  tags: string[];
  para_item_ids: string[];
  /** When what the note describes happened: YYYY-MM-DD, or '' for not said. */
  occurred: string;
  /** `[[Title]]` picks from completion: title → node id. */
  picked: Record<string, string>;
  link_type: string;
  capture_ids: string[];
}

export function parseTags(s: string): string[] {
  return [...new Set(s.split(',').map((t) => t.trim().replace(/^#/, '')).filter(Boolean))];
}

// Titles for `[[`: the search API matches whole words, so the newest 100 titles are also
// matched by substring here (what is being typed is usually a word's beginning).
let recent: { at: number; list: Promise<KNode[]> } | null = null;
const recentTitles = () => {
  if (!recent || Date.now() - recent.at > 30_000) recent = { at: Date.now(), list: api.get<{ data: KNode[] }>('/nodes' + qs({ per_page: 100 })).then((r) => r.data, () => []) };
  return recent.list;
};

const lookupTitles = async (text: string, signal: AbortSignal) => {
  const q = text.trim();
  const low = q.toLowerCase();
  const [latest, found] = await Promise.all([
    recentTitles(),
    q ? api.get<{ data: KNode[] }>('/nodes' + qs({ query: q, mode: 'hybrid', per_page: 10 }), { signal }).then((r) => r.data) : Promise.resolve([]),
  ]);
  const seen = new Set<string>();
  const rank = (n: KNode) => (n.title.toLowerCase().startsWith(low) ? 0 : n.title.toLowerCase().includes(low) ? 1 : 2);
  return [...latest.filter((n) => n.title.toLowerCase().includes(low)), ...found]
    .filter((n) => !seen.has(n.id) && !!seen.add(n.id))
    .sort((a, b) => rank(a) - rank(b))
    .slice(0, 12)
    .map((n) => ({ id: n.id, title: n.title, summary: n.summary }));
};

export function NodeForm({ initial, initialTitle, draftKey, submitLabel, busy, error, onSubmit, onCancel }: {
  initial?: KNode;
  /** A new node's title to start from (the command palette's "New node “…”"). */
  initialTitle?: string;
  draftKey: string;
  submitLabel: string;
  busy: boolean;
  error: ApiError | null;
  onSubmit: (d: NodeDraft) => void;
  onCancel?: () => void;
}) {
  const { items, error: paraError } = useParaItems();
  const base: EditorDraft = {
    title: initial?.title ?? initialTitle ?? '', summary: initial?.summary ?? '', content: initial?.body_markdown ?? '',
    tags: (initial?.tags ?? []).join(', '), para_item_ids: initial?.para_item_ids ?? [], occurred: initial?.occurred_at?.slice(0, 10) ?? '',
    link_type: DEFAULT_LINK_TYPE, picked: {}, capture_ids: [], saved_at: '',
  };
  // A title asked for (from the palette) wins over a draft of another title.
  const [restored, setRestored] = useState(() => {
    const r = loadDraft(draftKey);
    return r && !(initialTitle && r.title !== initialTitle) ? r : null;
  });
  const [d, setD] = useState<EditorDraft>(() => restored ?? base);
  const [tab, setTab] = useState<'write' | 'preview'>('write');
  const editor = useRef<EditorHandle | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  // Every change is written to the draft at once (a reload right after a keystroke keeps
  // it); going back to what is saved drops the draft.
  const latest = useRef(d);
  const update = (fn: (x: EditorDraft) => EditorDraft) => {
    const next = fn(latest.current);
    latest.current = next;
    const same = next.title === base.title && next.summary === base.summary && next.content === base.content && next.tags === base.tags && next.para_item_ids.join() === base.para_item_ids.join() && (next.occurred ?? '') === (base.occurred ?? '');
    if (same) clearDraft(draftKey);
    else saveDraft(draftKey, { ...next, saved_at: new Date().toISOString() });
    setD(next);
  };
  const set = (p: Partial<EditorDraft>) => update((x) => ({ ...x, ...p }));
  // An existing node is linked by the server when the capture's node is made; a new one by the page after saving.
  const uploads = useUploads(editor, d.title, (id) => update((x) => ({ ...x, capture_ids: [...x.capture_ids, id] })), initial?.id);

  // Ctrl-S / Cmd-S saves from anywhere on the page while the form is open (never the
  // browser's "save page" dialog).
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === 's') {
        e.preventDefault();
        formRef.current?.requestSubmit();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const discard = () => {
    clearDraft(draftKey);
    setRestored(null);
    latest.current = base;
    setD(base);
    editor.current?.setDoc(base.content);
  };
  const assignable = items.filter((p) => p.status !== 'archived' || d.para_item_ids.includes(p.id));

  return (
    <form
      ref={formRef}
      class="form node-form"
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit({ title: d.title.trim(), summary: d.summary, content: d.content, tags: parseTags(d.tags), para_item_ids: d.para_item_ids, occurred: d.occurred ?? '', picked: d.picked, link_type: d.link_type, capture_ids: d.capture_ids });
      }}
    >
      {restored && (
        <div class="draft-notice" role="status">
          <span>Draft restored{restored.saved_at ? ` (from ${new Date(restored.saved_at).toLocaleString()})` : ''}.</span>
          <Button size="sm" onClick={discard}>Discard draft</Button>
        </div>
      )}
      <Field label="Title" id="node-title">
        <input id="node-title" required maxLength={500} value={d.title} onInput={(e) => set({ title: e.currentTarget.value })} />
      </Field>
      <Field label="Summary" id="node-summary" hint="One or two sentences; shown in search results.">
        <textarea id="node-summary" rows={2} aria-describedby="node-summary-hint" value={d.summary} onInput={(e) => set({ summary: e.currentTarget.value })} />
      </Field>
      <div class="field">
        <div class="editor-head">
          <span class="label" id="node-content-label">Content (Markdown)</span>
          <div class="segmented editor-tabs" role="group" aria-label="Editor view">
            <button type="button" class={tab === 'write' ? 'on' : ''} aria-pressed={tab === 'write'} onClick={() => setTab('write')}>Write</button>
            <button type="button" class={tab === 'preview' ? 'on' : ''} aria-pressed={tab === 'preview'} onClick={() => setTab('preview')}>Preview</button>
          </div>
        </div>
        <div class={`editor-split show-${tab}`}>
          <div class="editor-pane">
            <MarkdownEditor
              id="node-content"
              value={d.content}
              label="Content (Markdown)"
              describedBy="node-content-hint"
              onChange={(content) => set({ content })}
              onFiles={uploads.add}
              lookup={lookupTitles}
              onPick={(title, id) => update((x) => ({ ...x, picked: { ...x.picked, [title]: id } }))}
              handle={editor}
            />
          </div>
          <section class="editor-preview" aria-label="Preview">
            {d.content.trim() ? <Markdown source={d.content} /> : <p class="muted">Nothing to preview yet.</p>}
          </section>
        </div>
        <p class="hint" id="node-content-hint">Type [[ to link a node · paste or drop images and files to attach them · Ctrl-S (⌘-S) saves.</p>
        {uploads.view}
      </div>
      <Field label="Type of the [[links]]" id="node-link-type" hint="The type given to links made from [[Title]] references when you save.">
        <select id="node-link-type" aria-describedby="node-link-type-hint" value={d.link_type} onChange={(e) => set({ link_type: e.currentTarget.value })}>
          {LINK_TYPES.map((t) => <option key={t} value={t}>{t.replace(/_/g, ' ')}</option>)}
        </select>
      </Field>
      <Field label="Tags" id="node-tags" hint="Separate with commas.">
        <TagInput id="node-tags" describedBy="node-tags-hint" value={d.tags} onInput={(tags) => set({ tags })} />
      </Field>
      <Field label="Happened on" id="node-occurred" hint="When what the note describes happened, if not when you write it (optional).">
        <input id="node-occurred" type="date" aria-describedby="node-occurred-hint" value={d.occurred ?? ''} onInput={(e) => set({ occurred: e.currentTarget.value })} />
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
                checked={d.para_item_ids.includes(p.id)}
                onChange={(e) => set({ para_item_ids: e.currentTarget.checked ? [...d.para_item_ids, p.id] : d.para_item_ids.filter((x) => x !== p.id) })}
              />
              {p.label} <span class="muted">{p.category}</span>
            </label>
          ))}
        </div>
      </fieldset>
      <Problem error={error} />
      <div class="row">
        <Button type="submit" tone="primary" busy={busy || uploads.busy} disabled={uploads.busy}>
          {submitLabel}
        </Button>
        {onCancel && <Button onClick={() => { clearDraft(draftKey); onCancel(); }}>Cancel</Button>}
      </div>
    </form>
  );
}
