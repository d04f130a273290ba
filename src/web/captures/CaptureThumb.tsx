// A capture's picture: the page's Open Graph image, else its favicon on a tinted tile,
// else a neutral tile with the site's initial. Decorative (the card names the site in text).
import { useCaptureImage } from './useCaptureImage.js';
import { hasFavicon, hasImage, siteName } from './capture-facts.js';
import type { Capture } from '../lib/types.js';

export function CaptureThumb({ capture }: { capture: Capture }) {
  const image = useCaptureImage(capture.id, 'image', hasImage(capture));
  const icon = useCaptureImage(capture.id, 'favicon', !hasImage(capture) && hasFavicon(capture));
  if (image) return <div class="cc-thumb"><img class="cc-image" src={image} alt="" loading="lazy" /></div>;
  const initial = siteName(capture).charAt(0).toUpperCase() || '·';
  return (
    <div class="cc-thumb cc-thumb-plain" aria-hidden="true">
      {icon ? <img class="cc-thumb-icon" src={icon} alt="" /> : <span class="cc-initial">{initial}</span>}
    </div>
  );
}

/** The favicon beside the site name, when one was kept. */
export function SiteIcon({ capture }: { capture: Capture }) {
  const icon = useCaptureImage(capture.id, 'favicon', hasFavicon(capture));
  return icon ? <img class="cc-favicon" src={icon} alt="" width={16} height={16} /> : <span class="cc-favicon cc-favicon-none" aria-hidden="true" />;
}
