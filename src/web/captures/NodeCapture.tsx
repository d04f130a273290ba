// On a node's page: the capture it came from, linking back to the capture page.
import { useApi } from '../lib/hooks.js';
import type { CapturePage } from '../lib/types.js';
import { siteName } from './capture-facts.js';
import { SiteIcon } from './CaptureThumb.js';
import '../styles/captures.css';

export function NodeCapture({ nodeId }: { nodeId: string }) {
  const list = useApi<CapturePage>(`/captures?node_id=${encodeURIComponent(nodeId)}&per_page=1`);
  const c = list.data?.data[0];
  if (!c) return null; // written by hand, or imported: no capture to show
  const site = siteName(c);
  return (
    <p class="node-from-capture">
      <SiteIcon capture={c} />
      <span>From capture:</span>
      <a href={`#/captures/${encodeURIComponent(c.id)}`}>{site === c.title ? site : `${site} — ${c.title}`}</a>
    </p>
  );
}
