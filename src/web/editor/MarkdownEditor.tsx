// The Markdown editor as a Preact component. CodeMirror is imported on first use, so it
// sits in its own chunk and the rest of the dashboard never downloads it; a plain textarea
// stands in for the moment it loads.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { EditorView } from '@codemirror/view';
import type { TitleLookup } from './wikilink-complete.js';

type Cm = typeof import('./cm.js');

export interface EditorHandle {
  insert(text: string): void;
  replace(find: string, text: string): void;
  setDoc(doc: string): void;
  focus(): void;
}

export function MarkdownEditor({ id, value, label, describedBy, onChange, onFiles, lookup, onPick, handle }: {
  id: string;
  value: string;
  label: string;
  describedBy?: string;
  onChange: (v: string) => void;
  onFiles: (files: File[]) => void;
  lookup: TitleLookup;
  onPick: (title: string, id: string) => void;
  handle: { current: EditorHandle | null };
}) {
  const host = useRef<HTMLDivElement>(null);
  const [ready, setReady] = useState(false);
  const [, setFailed] = useState(false);
  const cb = useRef({ onChange, onFiles, lookup, onPick });
  cb.current = { onChange, onFiles, lookup, onPick };
  const initial = useRef(value);
  initial.current = value;
  const fallback = useRef<HTMLTextAreaElement>(null);
  /** Sets the editor's text once it exists (the stand-in's input between its arrival and the next render). */
  const live = useRef<((doc: string) => void) | null>(null);

  useEffect(() => {
    let view: EditorView | null = null;
    let cancelled = false;
    import('./cm.js')
      .then((cm: Cm) => {
        if (cancelled || !host.current) return;
        // What is in the stand-in now: text typed into it may not have reached a render
        // (and so `value`) yet when CodeMirror arrives; taking the prop would drop it.
        const stand = fallback.current;
        const typed = stand?.value ?? initial.current;
        if (typed !== initial.current) cb.current.onChange(typed);
        view = cm.createEditor(host.current, {
          doc: typed,
          label,
          describedBy,
          onChange: (d) => cb.current.onChange(d),
          onFiles: (f) => cb.current.onFiles(f),
          lookup: (t, s) => cb.current.lookup(t, s),
          onPick: (t, i) => cb.current.onPick(t, i),
        });
        const v = view;
        // Someone typing in the stand-in goes on typing in the editor, where they were: the
        // stand-in is removed on the next render, and its focus would go with it (the next
        // keys lost), so the editor is shown and focused now, not then. Until that render,
        // what still reaches the stand-in is passed on (below).
        if (stand && document.activeElement === stand) {
          host.current.hidden = false;
          stand.hidden = true;
          cm.focusAt(v, stand.selectionStart, stand.selectionEnd);
        }
        live.current = (doc) => cm.setDoc(v, doc);
        handle.current = {
          insert: (text) => cm.insertAtCursor(v, text),
          replace: (find, text) => cm.replaceText(v, find, text),
          setDoc: (doc) => cm.setDoc(v, doc),
          focus: () => v.focus(),
        };
        setReady(true);
      })
      .catch(() => setFailed(true));
    return () => {
      cancelled = true;
      handle.current = null;
      live.current = null;
      view?.destroy();
    };
  }, []);

  return (
    <div class="md-editor" id={id} data-ready={ready ? 'true' : undefined}>
      {!ready && (
        <textarea
          ref={fallback}
          class="mono md-fallback"
          aria-label={label}
          aria-describedby={describedBy}
          rows={14}
          value={value}
          onInput={(e) => (live.current ? live.current(e.currentTarget.value) : onChange(e.currentTarget.value))}
        />
      )}
      <div ref={host} class="md-editor-host" hidden={!ready} />
    </div>
  );
}
