// The bookmarklet: a `javascript:` bookmark that opens Rhizome's own page in a popup
// window with the visited page's address, title and selection in the fragment. Nothing
// from Rhizome enters the visited page: the popup is opened with `noopener` (the page gets
// no handle on it, and the popup none on the page) and signs in with the dashboard's
// session, which lives in Rhizome's origin only.

/** Longest selection carried (it travels in the popup's URL fragment). */
export const BOOKMARKLET_SELECTION_MAX = 10_000;

export function bookmarkletHref(serverOrigin: string): string {
  // `#` would end a javascript: URL and `%` would be decoded in it: neither appears below.
  const code =
    '(function(){' +
    `var s=String(window.getSelection()||'').slice(0,${BOOKMARKLET_SELECTION_MAX});` +
    "var q=new URLSearchParams({url:location.href,title:document.title.slice(0,500),selection:s});" +
    `window.open(${JSON.stringify(serverOrigin)}+'/\\x23/bookmarklet?'+q,'_blank','popup,width=480,height=680,noopener,noreferrer')` +
    '})();void 0';
  return 'javascript:' + code;
}
