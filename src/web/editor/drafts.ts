// Drafts in localStorage, one per node and one for a new node, so a reload or a wrong click
// never loses what was typed. Cleared on a successful save.
export interface EditorDraft {
  title: string;
  summary: string;
  content: string;
  tags: string;
  para_item_ids: string[];
  /** When what the note describes happened (YYYY-MM-DD; '' when not said). Older drafts lack it. */
  occurred?: string;
  link_type: string;
  /** Titles picked from `[[` completion, with their node ids. */
  picked: Record<string, string>;
  /** Captures uploaded from this editor, to be linked on save. */
  capture_ids: string[];
  saved_at: string;
}

const PREFIX = 'rhizome.draft.';
export const draftKey = (nodeId?: string) => PREFIX + (nodeId ? `node.${nodeId}` : 'new');

export function loadDraft(key: string): EditorDraft | null {
  try {
    const raw = localStorage.getItem(key);
    if (!raw) return null;
    const d = JSON.parse(raw) as EditorDraft;
    return typeof d?.content === 'string' && typeof d.title === 'string' ? d : null;
  } catch {
    return null;
  }
}

export function saveDraft(key: string, d: EditorDraft): void {
  try {
    localStorage.setItem(key, JSON.stringify(d));
  } catch {
    /* storage full or disabled: the editor still works, only without a draft */
  }
}

export function clearDraft(key: string): void {
  try {
    localStorage.removeItem(key);
  } catch {
    /* ignore */
  }
}

export const hasDraft = (nodeId?: string) => loadDraft(draftKey(nodeId)) !== null;
