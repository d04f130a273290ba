// A capture's kept picture as an object URL. The session travels in a header (API key or
// bearer token), which <img src> cannot send, so the bytes are fetched and wrapped; the URL
// is revoked when the component goes away or the picture changes.
import { useEffect, useState } from 'preact/hooks';
import { request } from '../lib/api.js';

export function useCaptureImage(captureId: string, kind: 'image' | 'favicon', enabled: boolean): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!enabled) return;
    const ctl = new AbortController();
    let made: string | null = null;
    request<Response>('GET', `/captures/${encodeURIComponent(captureId)}/${kind}`, undefined, { raw: true, signal: ctl.signal })
      .then((res) => res.blob())
      .then((blob) => {
        if (ctl.signal.aborted || !blob.type.startsWith('image/')) return;
        made = URL.createObjectURL(blob);
        setUrl(made);
      })
      .catch(() => setUrl(null)); // no picture: the placeholder stays
    return () => {
      ctl.abort();
      if (made) URL.revokeObjectURL(made);
      setUrl(null);
    };
  }, [captureId, kind, enabled]);
  return url;
}
