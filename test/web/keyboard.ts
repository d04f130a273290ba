// Keyboard reachability: Tab through a page and name every visible control Tab never reached.
import type { Page } from 'playwright-core';

export async function unreachableByTab(page: Page, maxTabs = 250): Promise<string[]> {
  await page.evaluate(() => {
    (document.activeElement as HTMLElement | null)?.blur();
    document.querySelectorAll('[data-kb-seen]').forEach((e) => e.removeAttribute('data-kb-seen'));
    document.querySelectorAll('[data-kb-last]').forEach((e) => e.removeAttribute('data-kb-last'));
  });
  // Start from the top of the document, as a keyboard user arriving on the page does.
  await page.evaluate(() => window.scrollTo(0, 0));
  for (let i = 0; i < maxTabs; i++) {
    await page.keyboard.press('Tab');
    // A date input takes one Tab per part (month, day, year) without focus leaving it: staying
    // on the element just focused is not the walk coming round again.
    const again = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      if (!el || el === document.body) return false;
      if (el.hasAttribute('data-kb-last')) return false;
      document.querySelectorAll('[data-kb-last]').forEach((e) => e.removeAttribute('data-kb-last'));
      el.setAttribute('data-kb-last', '');
      if (el.hasAttribute('data-kb-seen')) return true;
      el.setAttribute('data-kb-seen', '');
      return false;
    });
    if (again) break;
  }
  return page.evaluate(() => {
    const controls = [...document.querySelectorAll<HTMLElement>('a[href], button, input, select, textarea, [tabindex]:not([tabindex="-1"])')];
    return controls
      .filter((el) => {
        // A native control taken out of the Tab order (tabindex=-1) still counts as unreachable.
        if ((el as HTMLButtonElement).disabled || el.closest('[inert]')) return false;
        if ((el as HTMLInputElement).type === 'hidden') return false;
        const r = el.getBoundingClientRect();
        const style = getComputedStyle(el);
        if (style.visibility === 'hidden' || style.display === 'none') return false;
        // Visually hidden controls still count (a skip link); invisible ones (zero size, not
        // focusable by design, such as a radio inside a labelled segmented control) do not.
        return r.width > 0 || r.height > 0 || el.classList.contains('skip');
      })
      .filter((el) => !el.hasAttribute('data-kb-seen'))
      // Radio groups: one stop per group is the platform's rule.
      .filter((el) => !((el as HTMLInputElement).type === 'radio' && document.querySelector(`input[type=radio][name="${(el as HTMLInputElement).name}"][data-kb-seen]`)))
      .map((el) => el.outerHTML.slice(0, 140));
  });
}
