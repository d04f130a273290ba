// A capture's picture: the page's Open Graph image, else its favicon on a tinted tile,
// else a neutral tile with the site's initial. Decorative (the card names the site in text).
import { useCaptureImage } from './useCaptureImage.js';
import { hasFavicon, hasImage, siteName } from './capture-facts.js';
import type { Capture } from '../lib/types.js';

export function CaptureThumb({ capture }: { capture: Capture }) {
  const image = useCaptureImage(capture.id, 'image', hasImage(capture));
  const icon = useCaptureImage(capture.id, 'favicon', !hasImage(capture) && hasFavicon(capture));
  if (image) return <div class="cc-thumb"><img class="cc-image" src={image} alt="" loading="lazy" /></div>;
  const first = siteName(capture).charAt(0);
  return (
    <div class="cc-thumb cc-thumb-plain" aria-hidden="true">
      {icon ? <img class="cc-thumb-icon" src={icon} alt="" /> : /[a-z]/i.test(first) && capture.url ? <span class="cc-initial">{first.toUpperCase()}</span> : <Glyph kind={capture.content_type} />}
    </div>
  );
}

/** A neutral line drawing for captures without a site to name: a note, a file, an address. */
function Glyph({ kind }: { kind: string }) {
  const note = kind === 'note';
  return (
    <svg class="cc-glyph" viewBox="0 0 24 24" width="40" height="40" fill="none" stroke="currentColor" stroke-width="1.5" stroke-linecap="round" stroke-linejoin="round">
      {note ? (
        <>
          <path d="M6 3h9l4 4v14H6z" />
          <path d="M14 3v5h5M9 12h7M9 16h5" />
        </>
      ) : (
        <>
          <circle cx="12" cy="12" r="9" />
          <path d="M3 12h18M12 3c2.5 2.6 3.8 5.6 3.8 9s-1.3 6.4-3.8 9c-2.5-2.6-3.8-5.6-3.8-9S9.5 5.6 12 3z" />
        </>
      )}
    </svg>
  );
}

/** The favicon beside the site name, when one was kept. */
export function SiteIcon({ capture }: { capture: Capture }) {
  const icon = useCaptureImage(capture.id, 'favicon', hasFavicon(capture));
  return icon ? <img class="cc-favicon" src={icon} alt="" width={16} height={16} /> : null;
}
