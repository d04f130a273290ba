// Drives the provider's login and consent pages with plain HTTP (a cookie jar and the
// forms' own actions), the way a browser would, stopping at the first redirect that
// leaves the provider.
export class Browser {
  private readonly jar = new Map<string, string>();

  private remember(res: Response) {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (/expires=Thu, 01 Jan 1970/i.test(c) || value === '') this.jar.delete(name);
      else this.jar.set(name, value);
    }
  }

  async request(url: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.jar.size) headers.set('Cookie', [...this.jar].map(([k, v]) => `${k}=${v}`).join('; '));
    const res = await fetch(url, { ...init, headers, redirect: 'manual' });
    this.remember(res);
    return res;
  }

  /**
   * Follows redirects from `url`; on a provider page with a form, submits it (the login
   * form with `login`, the consent form as it is). Returns the first URL outside `within`.
   */
  async run(url: string, within: string, login: string): Promise<string> {
    let res: Response | undefined; // a page already fetched (a form post that answered 200)
    for (let i = 0; i < 30; i++) {
      if (!res) {
        if (!url.startsWith(within)) return url;
        res = await this.request(url);
      }
      if (res.status >= 300 && res.status < 400) {
        url = new URL(res.headers.get('location')!, url).href;
        res = undefined;
        continue;
      }
      const html = await res.text();
      if (res.status !== 200) throw new Error(`provider answered ${res.status}: ${html.slice(0, 500)}`);
      const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
      if (!action) return url; // a page that ends the journey (e.g. "device signed in")
      const form = new URLSearchParams();
      for (const m of html.matchAll(/<input[^>]*type="hidden"[^>]*name="([^"]+)"[^>]*value="([^"]*)"/g)) form.set(m[1], m[2]);
      for (const m of html.matchAll(/<input[^>]*name="user_code"[^>]*value="([^"]*)"/g)) form.set('user_code', m[1]);
      if (/name="login"/.test(html)) {
        form.set('login', login);
        form.set('password', 'any');
      }
      url = new URL(action.replace(/&amp;/g, '&'), url).href;
      res = await this.request(url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: form.toString(),
      });
    }
    throw new Error('too many steps');
  }
}
