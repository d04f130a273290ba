// Feeds: subscribe by a feed's or a page's URL, see each feed's health (last poll, items,
// errors, the week-long failing mark), poll now, pause and resume, unsubscribe, and move
// the whole list in and out as OPML.
import { useState } from 'preact/hooks';
import { Badge, Button, Card, Empty, Field, PageHead, Problem, Spinner } from '../components/ui.js';
import { api, qs } from '../lib/api.js';
import { ago, fullTime, plural } from '../lib/format.js';
import { useAction, useApi } from '../lib/hooks.js';
import { toast } from '../lib/toast.js';
import type { Feed } from '../lib/types.js';
import '../styles/feeds.css';

const INTERVALS: Array<[number, string]> = [[15, 'every 15 minutes'], [60, 'hourly'], [180, 'every 3 hours'], [720, 'twice a day'], [1440, 'daily']];

export function FeedsPage() {
  const list = useApi<{ data: Feed[] }>('/feeds', { pollMs: 10_000 });
  const feeds = list.data?.data ?? [];
  return (
    <div class="page">
      <PageHead
        title="Feeds"
        sub={list.data ? `${plural(feeds.length, 'feed')} followed. Every new item becomes a capture tagged with its feed.` : 'RSS, Atom and JSON feeds whose new items come in by themselves.'}
        actions={<OpmlButtons onImported={list.reload} />}
      />
      <Subscribe onDone={list.reload} />
      <Problem error={list.error} onRetry={list.reload} />
      {!list.data && !list.error && <Spinner />}
      {list.data && feeds.length === 0 && (
        <Empty title="No feeds yet">
          <p>Paste a blog's address above: Rhizome finds its feed.</p>
        </Empty>
      )}
      {feeds.length > 0 && (
        <ul class="feed-list" aria-label="Feeds">
          {feeds.map((f) => <FeedRow key={f.id} feed={f} onChange={list.reload} />)}
        </ul>
      )}
    </div>
  );
}

function Subscribe({ onDone }: { onDone: () => Promise<void> | void }) {
  const [url, setUrl] = useState('');
  const [tags, setTags] = useState('');
  const [interval, setInterval] = useState(60);
  const add = useAction(async () => {
    const tagList = tags.split(',').map((t) => t.trim()).filter(Boolean);
    const f = await api.post<Feed>('/feeds', { url: url.trim(), interval_minutes: interval, ...(tagList.length ? { tags: tagList } : {}) });
    toast(`Subscribed to “${f.title}”`);
    setUrl('');
    setTags('');
    await onDone();
  });
  return (
    <Card title="Follow a feed">
      <form class="feed-form" onSubmit={(e) => (e.preventDefault(), void add.run())}>
        <Field label="Feed or page URL" id="feed-url" hint="A feed's address, or a web page that names its feed.">
          <input id="feed-url" type="url" required value={url} placeholder="https://example.com/blog" onInput={(e) => setUrl(e.currentTarget.value)} />
        </Field>
        <div class="feed-form-row">
          <Field label="Tags" id="feed-tags" hint="Comma-separated; every item gets them.">
            <input id="feed-tags" value={tags} placeholder="reading, garden" onInput={(e) => setTags(e.currentTarget.value)} />
          </Field>
          <Field label="Check" id="feed-interval">
            <select id="feed-interval" value={interval} onChange={(e) => setInterval(Number(e.currentTarget.value))}>
              {INTERVALS.map(([m, label]) => <option key={m} value={m}>{label}</option>)}
            </select>
          </Field>
        </div>
        <Problem error={add.error} />
        <div class="row">
          <Button tone="primary" type="submit" busy={add.busy}>Subscribe</Button>
        </div>
      </form>
    </Card>
  );
}

function FeedRow({ feed: f, onChange }: { feed: Feed; onChange: () => Promise<void> | void }) {
  const act = useAction(async (what: 'poll' | 'pause' | 'resume' | 'remove') => {
    if (what === 'poll') {
      await api.post(`/feeds/${f.id}/poll`);
      toast(`Checking “${f.title}” now`);
    } else if (what === 'remove') {
      if (!confirm(`Unsubscribe from “${f.title}”? Captures it brought stay.`)) return;
      await api.del(`/feeds/${f.id}`);
      toast(`Unsubscribed from “${f.title}”`);
    } else await api.patch(`/feeds/${f.id}`, { status: what === 'pause' ? 'paused' : 'active' });
    await onChange();
  });
  return (
    <li class="feed-row" data-status={f.status}>
      <div class="feed-main">
        <div class="row">
          <strong class="feed-title">{f.site_url ? <a href={f.site_url} target="_blank" rel="noopener noreferrer">{f.title}</a> : f.title}</strong>
          <Badge tone={`feed-${f.status}`} title={f.status === 'failing' ? `Every check has failed since ${fullTime(f.failing_since)}` : undefined}>{f.status}</Badge>
          {f.format && <span class="muted feed-format">{f.format.toUpperCase()}</span>}
        </div>
        <div class="feed-url muted">{f.url}</div>
        <div class="feed-facts">
          <a href={'#/' + qs({ tag: f.feed_tag })}>{plural(f.items_seen, 'item')}</a>
          <span title={fullTime(f.last_polled_at)}>checked {f.last_polled_at ? ago(f.last_polled_at) : 'not yet'}</span>
          {f.status !== 'paused' && f.next_poll_at && <span title={fullTime(f.next_poll_at)}>next {ago(f.next_poll_at)}</span>}
          {f.tags.length > 0 && <span>{f.tags.map((t) => `#${t}`).join(' ')}</span>}
        </div>
        {f.last_error && <p class="feed-error" role="status">Last check failed{f.error_count > 1 ? ` (${f.error_count} times in a row)` : ''}: {f.last_error}</p>}
        <Problem error={act.error} />
      </div>
      <div class="feed-actions">
        <Button size="sm" disabled={f.status === 'paused'} busy={act.busy} onClick={() => void act.run('poll')}>Check now<span class="sr-only"> {f.title}</span></Button>
        {f.status === 'paused'
          ? <Button size="sm" onClick={() => void act.run('resume')}>Resume<span class="sr-only"> {f.title}</span></Button>
          : <Button size="sm" onClick={() => void act.run('pause')}>Pause<span class="sr-only"> {f.title}</span></Button>}
        <Button size="sm" tone="ghost" onClick={() => void act.run('remove')}>Unsubscribe<span class="sr-only"> {f.title}</span></Button>
      </div>
    </li>
  );
}

function OpmlButtons({ onImported }: { onImported: () => Promise<void> | void }) {
  const download = useAction(async () => {
    const res = await api.get<Response>('/feeds/opml', { raw: true });
    const a = document.createElement('a');
    a.href = URL.createObjectURL(await res.blob());
    a.download = 'rhizome-feeds.opml';
    a.click();
    URL.revokeObjectURL(a.href);
  });
  const upload = useAction(async (file: File) => {
    const r = await api.post<{ imported: Feed[]; skipped: unknown[] }>('/feeds/opml', new Blob([await file.text()], { type: 'text/x-opml' }));
    toast(`Imported ${plural(r.imported.length, 'feed')}${r.skipped.length ? `, skipped ${r.skipped.length}` : ''}`);
    await onImported();
  });
  return (
    <div class="row">
      <Button size="sm" busy={download.busy} onClick={() => void download.run()}>Export OPML</Button>
      <label class="btn btn-default btn-sm feed-import">
        Import OPML
        <input type="file" accept=".opml,.xml,text/x-opml,application/xml,text/xml" class="sr-only" onChange={(e) => { const f = e.currentTarget.files?.[0]; if (f) void upload.run(f); e.currentTarget.value = ''; }} />
      </label>
      <Problem error={upload.error ?? download.error} />
    </div>
  );
}
