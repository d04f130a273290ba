// The Rhizome dashboard: a hash-routed Preact app over the same /api/v1 the CLI uses.
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import './styles.css';
import './styles/graph.css';
import { Layout } from './components/Layout.js';
import { Toasts } from './components/ui.js';
import { match, navigate, useRoute } from './lib/router.js';
import { loadSession, onSessionChange, startSession, type Session } from './lib/session.js';
import { BookmarkletPage } from './pages/Bookmarklet.js';
import { CapturePage } from './pages/Capture.js';
import { CapturesPage } from './pages/Captures.js';
import { GraphPage } from './pages/Graph.js';
import { ImportPage } from './pages/Import.js';
import { LoginPage } from './pages/Login.js';
import { NewNodePage } from './pages/NewNode.js';
import { NodePage } from './pages/Node.js';
import { ParaPage } from './pages/Para.js';
import { SearchPage } from './pages/Search.js';
import { SettingsPage } from './pages/Settings.js';
import { TagsPage } from './pages/Tags.js';
import { FeedsPage } from './pages/Feeds.js';
import { Palette } from './palette/Palette.js';
import { AskPage } from './ask/AskPage.js';
import { ReaderPage } from './reader/ReaderPage.js';

function useSession(): Session | null {
  const [s, set] = useState(loadSession);
  useEffect(() => onSessionChange(set), []);
  return s;
}

/** `/` anywhere outside a text field jumps to the search box. */
function useSlashToSearch(path: string) {
  useEffect(() => {
    const on = (e: KeyboardEvent) => {
      if (e.key !== '/' || e.metaKey || e.ctrlKey || e.altKey) return;
      const t = e.target as HTMLElement;
      if (t.closest('input, textarea, select, [contenteditable="true"]')) return;
      e.preventDefault();
      if (path !== '/') navigate('/');
      requestAnimationFrame(() => document.getElementById('search-input')?.focus());
    };
    window.addEventListener('keydown', on);
    return () => window.removeEventListener('keydown', on);
  }, [path]);
}

function Page({ path, query }: { path: string; query: URLSearchParams }) {
  let m: Record<string, string> | null;
  if (path === '/' || path === '/search') return <SearchPage query={query} />;
  if (path === '/nodes/new') return <NewNodePage key={query.get('title') ?? ''} title={query.get('title') ?? undefined} />;
  if ((m = match('/nodes/:id/read', path))) return <ReaderPage key={m.id} id={m.id} highlight={query.get('highlight')} />;
  if ((m = match('/nodes/:id', path))) return <NodePage key={m.id} id={m.id} passage={query.get('passage')} />;
  if (path === '/ask') return <AskPage key={query.get('q') ?? ''} query={query} />;
  if (path === '/graph') return <GraphPage query={query} />;
  if (path === '/para') return <ParaPage />;
  if (path === '/captures') return <CapturesPage query={query} />;
  if ((m = match('/captures/:id', path))) return <CapturePage key={m.id} id={m.id} />;
  if (path === '/tags') return <TagsPage />;
  if (path === '/feeds') return <FeedsPage />;
  if (path === '/import') return <ImportPage />;
  if (path === '/settings') return <SettingsPage />;
  return (
    <div class="page">
      <h1>Page not found</h1>
      <p>
        Nothing lives at <code>#{path}</code>. <a href="#/">Go to search</a>.
      </p>
    </div>
  );
}

function Redirect({ to }: { to: string }) {
  useEffect(() => navigate(to, true), [to]);
  return null;
}

function App() {
  const session = useSession();
  const { path, query } = useRoute();
  useSlashToSearch(path);

  // A magic link (`/#/login?token=...`) is honoured even when already signed in.
  if (!session || (path === '/login' && query.get('token'))) {
    return <LoginPage token={path === '/login' ? query.get('token') : null} returnTo={path === '/bookmarklet' ? location.hash : undefined} />;
  }
  if (path === '/login') return <Redirect to="/" />;
  if (path === '/bookmarklet') return <BookmarkletPage query={query} />;
  return (
    <>
      <Layout path={path} session={session}>
        <Page path={path} query={query} />
      </Layout>
      <Palette />
    </>
  );
}

startSession();
render(
  <>
    <App />
    <Toasts />
  </>,
  document.getElementById('app')!,
);
