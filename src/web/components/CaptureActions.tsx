// The lifecycle calls a capture allows in its current status.
import { api } from '../lib/api.js';
import { useAction } from '../lib/hooks.js';
import { toast } from '../lib/toast.js';
import type { Capture } from '../lib/types.js';
import { Button, Problem } from './ui.js';

export function CaptureActions({ capture, onDone, compact }: { capture: Capture; onDone: () => void; compact?: boolean }) {
  const act = useAction(async (action: string, message: string) => {
    await api.post(`/captures/${encodeURIComponent(capture.id)}/${action}`);
    toast(message);
    onDone();
  });
  const s = capture.status;
  const b = (action: string, label: string, message: string, tone: 'default' | 'ghost' = 'ghost') => (
    <Button size="sm" tone={tone} disabled={act.busy} onClick={() => void act.run(action, message)} aria-label={`${label}: ${capture.title}`}>
      {label}
    </Button>
  );
  return (
    <div class={`capture-actions ${compact ? 'compact' : ''}`}>
      {s === 'failed' && b('retry', 'Retry', 'Queued again', 'default')}
      {(s === 'completed' || s === 'failed') && b('reingest', 'Reingest', 'Reprocessing from scratch')}
      {s === 'archived' ? b('unarchive', 'Unarchive', 'Unarchived') : s !== 'processing' && b('archive', 'Archive', 'Archived')}
      {s !== 'dismissed' && s !== 'archived' && s !== 'processing' && b('dismiss', 'Dismiss', 'Dismissed')}
      <Problem error={act.error} />
    </div>
  );
}
