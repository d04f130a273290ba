// The CodeMirror 6 editor itself, loaded on demand (its own chunk): Markdown with line
// wrapping, the app's colours from its CSS custom properties, `[[` title completion, and
// files pasted or dropped handed to the caller.
import { autocompletion, closeBrackets, closeBracketsKeymap, completionKeymap } from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { markdownLanguage } from '@codemirror/lang-markdown';
import { HighlightStyle, LanguageSupport, syntaxHighlighting } from '@codemirror/language';
import { EditorState } from '@codemirror/state';
import { EditorView, keymap, placeholder } from '@codemirror/view';
import { tags as t } from '@lezer/highlight';
import { wikilinkSource, type TitleLookup } from './wikilink-complete.js';

export interface EditorOptions {
  doc: string;
  label: string;
  describedBy?: string;
  onChange: (doc: string) => void;
  onFiles: (files: File[], view: EditorView) => void;
  lookup: TitleLookup;
  onPick: (title: string, id: string) => void;
}

const theme = EditorView.theme({
  '&': { color: 'var(--text)', backgroundColor: 'var(--surface)', fontSize: '0.95rem' },
  '.cm-content': { fontFamily: 'var(--mono)', caretColor: 'var(--text)', padding: '10px 0' },
  '.cm-line': { padding: '0 12px' },
  '&.cm-focused': { outline: '2px solid var(--focus)', outlineOffset: '1px' },
  '.cm-cursor, .cm-dropCursor': { borderLeftColor: 'var(--text)' },
  '&.cm-focused .cm-selectionBackground, .cm-selectionBackground, ::selection': { backgroundColor: 'var(--accent-weak)' },
  '.cm-placeholder': { color: 'var(--text-muted)' },
  '.cm-tooltip': { backgroundColor: 'var(--surface)', color: 'var(--text)', border: '1px solid var(--border-strong)', borderRadius: 'var(--r1)' },
  '.cm-tooltip-autocomplete > ul > li': { padding: '4px 8px' },
  '.cm-tooltip-autocomplete > ul > li[aria-selected]': { backgroundColor: 'var(--accent)', color: 'var(--on-accent)' },
  '.cm-completionDetail': { color: 'inherit', opacity: 0.8, marginLeft: '8px', fontStyle: 'normal' },
});

const highlight = HighlightStyle.define([
  { tag: t.heading, fontWeight: '700', color: 'var(--accent-text)' },
  { tag: t.strong, fontWeight: '700' },
  { tag: t.emphasis, fontStyle: 'italic' },
  { tag: t.link, color: 'var(--info)' },
  { tag: t.url, color: 'var(--info)' },
  { tag: t.monospace, color: 'var(--violet)' },
  { tag: t.quote, color: 'var(--text-muted)' },
  { tag: [t.processingInstruction, t.meta], color: 'var(--text-muted)' },
]);

export function createEditor(parent: HTMLElement, o: EditorOptions): EditorView {
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc: o.doc,
      extensions: [
        history(),
        closeBrackets(),
        new LanguageSupport(markdownLanguage),
        EditorView.lineWrapping,
        placeholder('Write in Markdown. Type [[ to link a node; paste or drop files to attach them.'),
        autocompletion({ override: [wikilinkSource(o.lookup, o.onPick)], activateOnTyping: true }),
        keymap.of([...closeBracketsKeymap, ...completionKeymap, ...historyKeymap, ...defaultKeymap]), // Tab is left to the page: the editor is no keyboard trap
        syntaxHighlighting(highlight),
        theme,
        EditorView.contentAttributes.of({ 'aria-label': o.label, 'aria-multiline': 'true', ...(o.describedBy ? { 'aria-describedby': o.describedBy } : {}) }),
        EditorView.updateListener.of((u) => {
          if (u.docChanged) o.onChange(u.state.doc.toString());
        }),
        EditorView.domEventHandlers({
          paste(e, v) {
            const files = [...(e.clipboardData?.files ?? [])];
            if (!files.length) return false;
            e.preventDefault();
            o.onFiles(files, v);
            return true;
          },
          drop(e, v) {
            const files = [...(e.dataTransfer?.files ?? [])];
            if (!files.length) return false;
            e.preventDefault();
            const pos = v.posAtCoords({ x: e.clientX, y: e.clientY });
            if (pos != null) v.dispatch({ selection: { anchor: pos } });
            o.onFiles(files, v);
            return true;
          },
        }),
      ],
    }),
  });
  return view;
}

/** Puts text at the cursor (replacing the selection) and returns where it starts. */
export function insertAtCursor(view: EditorView, text: string): number {
  const { from, to } = view.state.selection.main;
  view.dispatch({ changes: { from, to, insert: text }, selection: { anchor: from + text.length } });
  return from;
}

/** Replaces the first occurrence of a placeholder (an upload finishing) with its final text. */
export function replaceText(view: EditorView, find: string, text: string): void {
  const at = view.state.doc.toString().indexOf(find);
  if (at >= 0) view.dispatch({ changes: { from: at, to: at + find.length, insert: text } });
}

/** Focuses the editor with this selection (offsets into the document, clamped to it). */
export function focusAt(view: EditorView, anchor: number, head: number): void {
  const len = view.state.doc.length;
  view.dispatch({ selection: { anchor: Math.min(anchor, len), head: Math.min(head, len) } });
  view.focus();
}

export function setDoc(view: EditorView, doc: string): void {
  if (view.state.doc.toString() !== doc) view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: doc } });
}
