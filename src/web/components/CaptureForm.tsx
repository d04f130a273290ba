// Capture a link, a note or a file. Files are checked here first (25 MB, allowed types)
// so nobody waits for an upload the server will refuse; the server still verifies bytes.
import { useRef, useState } from 'preact/hooks';
import { api } from '../lib/api.js';
import { URL_TYPES, guessType } from '../lib/capture-type.js';
import { bytes } from '../lib/format.js';
import { useAction } from '../lib/hooks.js';
import { toast } from '../lib/toast.js';
import { Button, Field, Problem } from './ui.js';
import { UPLOAD_MAX_BYTES } from '../../schemas/enums.js';

export const MAX_UPLOAD = UPLOAD_MAX_BYTES;
const ALLOWED_EXT = ['pdf', 'png', 'jpg', 'jpeg', 'gif', 'webp', 'doc', 'docx', 'txt', 'text', 'md', 'markdown'];
export const ALLOWED_LABEL = 'PDF, PNG, JPEG, GIF, WebP, Word (.doc, .docx), plain text or Markdown';
type Tab = 'link' | 'note' | 'file';

export function checkFile(f: File): string | null {
  const ext = f.name.includes('.') ? f.name.split('.').pop()!.toLowerCase() : '';
  if (!ALLOWED_EXT.includes(ext)) return `“${f.name}” is not a supported type. Allowed: ${ALLOWED_LABEL}.`;
  if (f.size > MAX_UPLOAD) return `“${f.name}” is ${bytes(f.size)}; the limit is 25 MB.`;
  if (f.size === 0) return `“${f.name}” is empty.`;
  return null;
}


export function CaptureForm({ onCaptured }: { onCaptured: (id: string) => void }) {
  const [tab, setTab] = useState<Tab>('link');
  const [url, setUrl] = useState('');
  const [type, setType] = useState<string>('');
  const [title, setTitle] = useState('');
  const [text, setText] = useState('');
  const [why, setWhy] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [over, setOver] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);

  const reset = () => (setUrl(''), setTitle(''), setText(''), setWhy(''), setFile(null), setType(''));
  const submit = useAction(async () => {
    let res: { id: string };
    if (tab === 'file') {
      if (!file) throw new Error('Choose a file first.');
      const problem = checkFile(file);
      if (problem) throw new Error(problem);
      const form = new FormData();
      form.append('file', file, file.name);
      if (title.trim()) form.append('title', title.trim());
      if (why.trim()) form.append('why', why.trim());
      res = await api.post<{ id: string }>('/captures/upload', form);
    } else if (tab === 'link') {
      const u = url.trim();
      res = await api.post<{ id: string }>('/captures', {
        title: title.trim() || u,
        url: u,
        content_type: type || guessType(u),
        source: 'api',
        ...(why.trim() ? { why: why.trim() } : {}),
      });
    } else {
      res = await api.post<{ id: string }>('/captures', {
        title: title.trim() || text.trim().split('\n')[0].slice(0, 120) || 'Note',
        content_type: 'note',
        selected_text: text,
        source: 'api',
        ...(why.trim() ? { why: why.trim() } : {}),
      });
    }
    toast('Captured — processing in the background');
    reset();
    onCaptured(res.id);
  });

  const pick = (f: File | undefined | null) => {
    if (!f) return;
    setFile(f);
    setFileError(checkFile(f));
  };

  return (
    <form class="form capture-form" onSubmit={(e) => (e.preventDefault(), void submit.run())}>
      <div class="tabs" role="tablist" aria-label="What to capture">
        {(['link', 'note', 'file'] as Tab[]).map((t) => (
          <button key={t} type="button" role="tab" id={`tab-${t}`} aria-selected={tab === t} aria-controls="capture-panel" class={tab === t ? 'on' : ''} onClick={() => (setTab(t), submit.setError(null))}>
            {t === 'link' ? 'Link' : t === 'note' ? 'Note' : 'File'}
          </button>
        ))}
      </div>
      <div id="capture-panel" role="tabpanel" aria-labelledby={`tab-${tab}`}>
        {tab === 'link' && (
          <div class="grid-2">
            <Field label="URL" id="cap-url">
              <input id="cap-url" type="url" required placeholder="https://…" value={url} onInput={(e) => setUrl(e.currentTarget.value)} />
            </Field>
            <Field label="Type" id="cap-type">
              <select id="cap-type" value={type} onChange={(e) => setType(e.currentTarget.value)}>
                <option value="">Detect ({guessType(url)})</option>
                {URL_TYPES.map((t) => (
                  <option key={t} value={t}>
                    {t}
                  </option>
                ))}
              </select>
            </Field>
          </div>
        )}
        {tab === 'note' && (
          <Field label="Note" id="cap-note">
            <textarea id="cap-note" required rows={5} value={text} onInput={(e) => setText(e.currentTarget.value)} placeholder="What's on your mind?" />
          </Field>
        )}
        {tab === 'file' && (
          <div
            class={`dropzone ${over ? 'over' : ''} ${fileError ? 'bad' : ''}`}
            onDragOver={(e) => (e.preventDefault(), setOver(true))}
            onDragLeave={() => setOver(false)}
            onDrop={(e) => {
              e.preventDefault();
              setOver(false);
              pick(e.dataTransfer?.files[0]);
            }}
          >
            <input ref={fileInput} id="cap-file" type="file" class="sr-only" accept={ALLOWED_EXT.map((x) => '.' + x).join(',')} onChange={(e) => pick(e.currentTarget.files?.[0])} aria-describedby="cap-file-limits" />
            <p>
              {file ? (
                <>
                  <strong>{file.name}</strong> · {bytes(file.size)}
                </>
              ) : (
                'Drop a file here'
              )}
            </p>
            <label for="cap-file" class="btn btn-default btn-sm">
              {file ? 'Choose another file' : 'Choose a file'}
            </label>
            <p class="hint" id="cap-file-limits">
              {ALLOWED_LABEL} · up to 25 MB
            </p>
            {fileError && (
              <p class="error-text" role="alert">
                {fileError}
              </p>
            )}
          </div>
        )}
        <div class="grid-2">
          <Field label={tab === 'file' ? 'Title (optional override)' : 'Title (optional)'} id="cap-title">
            <input id="cap-title" maxLength={500} value={title} onInput={(e) => setTitle(e.currentTarget.value)} />
          </Field>
          <Field label="Why (optional)" id="cap-why">
            <input id="cap-why" value={why} onInput={(e) => setWhy(e.currentTarget.value)} placeholder="Why it matters to you" />
          </Field>
        </div>
      </div>
      <Problem error={submit.error} />
      <Button type="submit" tone="primary" busy={submit.busy} disabled={tab === 'file' && (!file || !!fileError)}>
        Capture
      </Button>
    </form>
  );
}
