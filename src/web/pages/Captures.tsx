// Captures: the form, then the captures as cards (picture, site, first lines, status)
// whose statuses update live while anything is still pending or processing.
import { CaptureCard } from '../captures/CaptureCard.js';
import { CaptureForm } from '../components/CaptureForm.js';
import { Button, Card, Empty, PageHead, Problem, Spinner } from '../components/ui.js';
import { qs } from '../lib/api.js';
import { useApi } from '../lib/hooks.js';
import { navigate } from '../lib/router.js';
import type { CapturePage } from '../lib/types.js';
import { CAPTURE_STATUSES } from '../../schemas/enums.js';
import '../styles/captures.css';

const STATUSES = CAPTURE_STATUSES;
const PER_PAGE = 25;

export function CapturesPage({ query }: { query: URLSearchParams }) {
  const status = query.get('status') ?? '';
  const page = Math.max(1, Number(query.get('page')) || 1);
  const list = useApi<CapturePage>('/captures' + qs({ status, page, per_page: PER_PAGE }), {
    // Fast while work is in flight, slow otherwise (new captures may arrive from the CLI).
    pollMs: (d) => (d?.data.some((c) => c.status === 'pending' || c.status === 'processing') ? 1500 : 10_000),
  });
  const set = (patch: Record<string, string | undefined>) => navigate('/captures' + qs({ status, page: undefined, ...patch }), true);
  const items = list.data?.data ?? [];

  return (
    <div class="page">
      <PageHead title="Captures" sub="Pages, notes and files, processed into nodes in the background." />
      <Card title="Capture something">
        <CaptureForm onCaptured={() => void list.reload()} />
      </Card>
      <Card
        title="Recent captures"
        actions={
          <label class="inline-field">
            <span>Status</span>
            <select value={status} onChange={(e) => set({ status: e.currentTarget.value || undefined })}>
              <option value="">Any</option>
              {STATUSES.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </select>
          </label>
        }
      >
        <Problem error={list.error} onRetry={list.reload} />
        {!list.data && !list.error && <Spinner />}
        {list.data && items.length === 0 && <Empty title={status ? `No ${status} captures` : 'Nothing captured yet'}>Use the form above, the CLI or the MCP server.</Empty>}
        {items.length > 0 && (
          <ul class="cc-grid" aria-live="polite">
            {items.map((c) => (
              <CaptureCard key={c.id} capture={c} onChanged={() => void list.reload()} />
            ))}
          </ul>
        )}
        {list.data && list.data.total > PER_PAGE && (
          <nav class="pager" aria-label="Pages">
            <Button size="sm" disabled={page <= 1} onClick={() => set({ page: String(page - 1) })}>
              Previous
            </Button>
            <span class="muted">
              Page {page} of {Math.ceil(list.data.total / PER_PAGE)}
            </span>
            <Button size="sm" disabled={page * PER_PAGE >= list.data.total} onClick={() => set({ page: String(page + 1) })}>
              Next
            </Button>
          </nav>
        )}
      </Card>
    </div>
  );
}
