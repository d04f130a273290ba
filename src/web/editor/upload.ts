// Uploads one file as a capture (POST /captures/upload, multipart) with progress, which
// fetch() cannot report; the session's credentials as in lib/api.ts.
import { ApiError } from '../lib/api.js';
import { loadSession, needsRefresh, refreshSession } from '../lib/session.js';

export interface Uploaded {
  id: string;
}

/** `linkFrom`: the node being edited, which the server links to the capture's node once it is made. */
export async function uploadCapture(file: File, why: string, onProgress: (fraction: number) => void, linkFrom?: string): Promise<Uploaded> {
  let s = loadSession();
  if (s && needsRefresh(s)) s = await refreshSession();
  const form = new FormData();
  form.append('file', file, file.name || 'pasted');
  if (why) form.append('why', why.slice(0, 10_000));
  if (linkFrom) form.append('link_from', linkFrom);
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/api/v1/captures/upload');
    if (s) xhr.setRequestHeader('Authorization', s.kind === 'apikey' ? `ApiKey ${s.key}` : `Bearer ${s.access}`);
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(e.loaded / e.total);
    xhr.onerror = () => reject(new ApiError(0, 'network_error', 'Cannot reach the server', 'The upload did not go through.'));
    xhr.onload = () => {
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        /* not JSON */
      }
      if (xhr.status === 201 && typeof body.id === 'string') return resolve({ id: body.id });
      const str = (v: unknown, d: string) => (typeof v === 'string' && v ? v : d);
      reject(new ApiError(xhr.status, str(body.code, 'http_' + xhr.status), str(body.title, `HTTP ${xhr.status}`), str(body.detail, '')));
    };
    xhr.send(form);
  });
}

/** The Markdown put in the text for an uploaded file: an image or a link to its capture page. */
export function captureMarkdown(file: File, id: string): string {
  const name = (file.name || 'pasted file').replace(/[[\]]/g, '');
  return file.type.startsWith('image/') ? `![${name}](#/captures/${id})` : `[${name}](#/captures/${id})`;
}
