// A page for something that is not there (a deleted node, a mistyped link): says so plainly
// and offers ways on, never just "Try again".
import { useEffect, useRef } from 'preact/hooks';

interface Way {
  href: string;
  label: string;
}

export function Missing({ what, back, create }: { what: string; back: Way; create?: Way }) {
  const head = useRef<HTMLHeadingElement>(null);
  useEffect(() => head.current?.focus({ preventScroll: true }), []);
  // Came here from another page: going back is the likeliest wish.
  const canGoBack = history.length > 1;
  return (
    <div class="page missing" role="region" aria-labelledby="missing-title">
      <h1 id="missing-title" ref={head} tabIndex={-1}>
        This {what} does not exist
      </h1>
      <p class="muted">It may have been deleted, or the link that led here is mistyped or from another Rhizome.</p>
      <div class="row">
        {canGoBack && (
          <button type="button" class="btn btn-default btn-md" onClick={() => history.back()}>
            Go back
          </button>
        )}
        <a class="btn btn-primary btn-md" href={back.href}>
          {back.label}
        </a>
        {create && (
          <a class="btn btn-ghost btn-md" href={create.href}>
            {create.label}
          </a>
        )}
      </div>
    </div>
  );
}
