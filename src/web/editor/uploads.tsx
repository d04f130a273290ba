// Files pasted or dropped into the editor: each is uploaded as a capture, a placeholder
// marks its place in the text until the upload ends, then becomes a Markdown reference to
// the capture. Progress and errors are listed under the editor.
import { useState } from 'preact/hooks';
import type { EditorHandle } from './MarkdownEditor.js';
import { captureMarkdown, uploadCapture } from './upload.js';

interface Upload {
  key: number;
  name: string;
  progress: number;
  error?: string;
  done?: boolean;
}

let seq = 0;
/** The server's upload limit: a bigger file is refused here rather than sent for nothing. */
const MAX_BYTES = 25 * 1024 * 1024;

export function useUploads(editor: { current: EditorHandle | null }, title: string, onUploaded: (captureId: string) => void, nodeId?: string) {
  const [list, setList] = useState<Upload[]>([]);
  const patch = (key: number, p: Partial<Upload>) => setList((l) => l.map((u) => (u.key === key ? { ...u, ...p } : u)));

  const add = (files: File[]) => {
    for (const file of files) {
      const key = ++seq;
      const name = file.name || 'pasted file';
      if (file.size > MAX_BYTES) {
        setList((l) => [...l, { key, name, progress: 0, error: 'the file is larger than 25 MB, the upload limit' }]);
        continue;
      }
      const mark = `<!-- uploading ${key}: ${name.replace(/--/g, '-')} -->`;
      editor.current?.insert(mark + '\n');
      setList((l) => [...l, { key, name, progress: 0 }]);
      uploadCapture(file, title.trim() ? `Attached while writing “${title.trim()}”` : 'Attached while writing a new node', (f) => patch(key, { progress: f }), nodeId)
        .then(({ id }) => {
          editor.current?.replace(mark, captureMarkdown(file, id));
          onUploaded(id);
          patch(key, { progress: 1, done: true });
        })
        .catch((e: Error & { detail?: string; title?: string }) => {
          editor.current?.replace(mark + '\n', '');
          patch(key, { error: e.detail || e.title || e.message });
        });
    }
  };

  const busy = list.some((u) => !u.done && !u.error);
  const view = list.length ? (
    <ul class="uploads" aria-label="Attachments" aria-live="polite">
      {list.map((u) => (
        <li key={u.key} class={u.error ? 'upload-error' : ''}>
          <span class="upload-name">{u.name}</span>
          {u.error ? (
            <span role="alert">Upload failed: {u.error}</span>
          ) : u.done ? (
            <span class="muted">Uploaded as a capture; linked when you save.</span>
          ) : (
            <progress max={1} value={u.progress} aria-label={`Uploading ${u.name}`} />
          )}
          {(u.done || u.error) && (
            <button type="button" class="linklike" onClick={() => setList((l) => l.filter((x) => x.key !== u.key))} aria-label={`Hide ${u.name}`}>
              Hide
            </button>
          )}
        </li>
      ))}
    </ul>
  ) : null;
  return { add, view, busy };
}
