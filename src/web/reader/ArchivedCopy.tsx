// The page as it was captured: its archived copy, shown in a sandboxed frame (no script
// runs in it; the copy's own policy lets it load nothing). When the link check found the
// original gone, it says so: the copy is what is left.
import { useState } from 'preact/hooks';
import { Button, Problem } from '../components/ui.js';
import { api } from '../lib/api.js';
import { useAction, useApi } from '../lib/hooks.js';
import { toast } from '../lib/toast.js';
import type { CapturePage } from '../lib/types.js';

export function ArchivedCopy({ nodeId }: { nodeId: string }) {
  const list = useApi<CapturePage>(`/captures?node_id=${encodeURIComponent(nodeId)}&per_page=1`);
  const [html, setHtml] = useState<string | null>(null);
  const c = list.data?.data[0];
  const path = c ? `/captures/${encodeURIComponent(c.id)}/snapshot` : '';
  const show = useAction(async () => {
    const body = await api.get<string>(path);
    setHtml(typeof body === 'string' && !body.startsWith('%PDF') ? body : null);
    if (typeof body === 'string' && body.startsWith('%PDF')) toast('This capture is a PDF: its copy is the file itself');
  });
  const rearchive = useAction(async () => {
    await api.post(path);
    toast('Archiving the page again in the background');
  });
  if (!c?.url) return null;
  const gone = (c.metadata as Record<string, unknown> | undefined)?.source_status === 'gone';
  return (
    <section class="reader-archive" aria-label="Archived copy">
      {gone && <p class="reader-gone"><strong>Original gone</strong> — your copy is here.</p>}
      <div class="reader-archive-actions">
        <Button size="sm" busy={show.busy} onClick={() => (html ? setHtml(null) : void show.run())} aria-expanded={!!html}>
          {html ? 'Hide the archived copy' : 'Show the archived copy'}
        </Button>
        <Button size="sm" busy={rearchive.busy} onClick={() => void rearchive.run()}>Archive again</Button>
        <a class="muted" href={c.url} target="_blank" rel="noopener noreferrer">original</a>
      </div>
      <Problem error={show.error?.status === 404 ? null : show.error ?? rearchive.error} />
      {show.error?.status === 404 && <p class="muted">No archived copy yet.</p>}
      {html && <iframe class="reader-archive-frame" title="Archived copy" sandbox="" srcdoc={html} />}
    </section>
  );
}
