import { fetchAnswered } from './fetch-answered.js';
import { TENANT_PASSWORD } from './oauth.js';
import { stackInfo } from './stack-env.js';

/** One answer of the dashboard, as a browser would get it before following a redirect. */
export interface DashboardPage {
  status: number;
  html: string;
  /** With a redirect: where to, as sent. */
  location?: string;
}

/** A browser signed in to the dashboard: cookies kept by origin, the CSRF token of the last page posted back. */
export interface DashboardClient {
  /** The dashboard's origin (PUBLIC_BASE_URL's, without /api/v1). */
  origin: string;
  get(path: string): Promise<DashboardPage>;
  /** Posts a form, adding the csrf hidden field of the last page that had one (unless `fields` names its own). */
  post(path: string, fields?: Record<string, string>): Promise<DashboardPage>;
  /** Posts a urlencoded body as given (its values already encoded, or not encodable at all), after the last page's csrf. */
  postRaw(path: string, body: string): Promise<DashboardPage>;
}

const MAX_REDIRECTS = 10;

/** The value of the first hidden `csrf` field of a page, as the dashboard and the auth-server write it. */
export function csrfOf(html: string): string | undefined {
  return /<input type="hidden" name="csrf" value="([^"]*)">/.exec(html)?.[1];
}

/** Cookies by origin, as a browser keeps them for these tests (no paths, no expiry beyond removal). */
class CookieJar {
  private readonly byOrigin = new Map<string, Map<string, string>>();

  header(url: URL): string {
    return [...(this.byOrigin.get(url.origin) ?? new Map<string, string>())].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  store(url: URL, res: Response): void {
    const cookies = this.byOrigin.get(url.origin) ?? new Map<string, string>();
    this.byOrigin.set(url.origin, cookies);
    for (const line of res.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const removed = value === '' || attributes.some((a) => /^\s*max-age=0\s*$/i.test(a) || /^\s*expires=Thu, 01 Jan 1970/i.test(a));
      if (removed) cookies.delete(name);
      else cookies.set(name, value);
    }
  }
}

class Browser {
  private readonly jar = new CookieJar();

  async send(url: URL, init: { method?: string; form?: Record<string, string> | string; origin?: string } = {}): Promise<DashboardPage> {
    const headers: Record<string, string> = { accept: 'text/html' };
    const cookie = this.jar.header(url);
    if (cookie) headers.cookie = cookie;
    if (init.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      headers.origin = init.origin ?? url.origin;
    }
    const res = await fetchAnswered(url, {
      method: init.method ?? (init.form ? 'POST' : 'GET'),
      headers,
      redirect: 'manual',
      ...(init.form !== undefined && { body: typeof init.form === 'string' ? init.form : new URLSearchParams(init.form).toString() }),
    });
    this.jar.store(url, res);
    return { status: res.status, html: await res.text(), location: res.headers.get('location') ?? undefined };
  }

  /** Follows redirects (GET, as browsers do after a 302 or 303) until a page that is none, or one of `stopAt`. */
  async follow(from: URL, page: DashboardPage, stopAt: (url: URL) => boolean = () => false): Promise<{ url: URL; page: DashboardPage }> {
    let url = from;
    let current = page;
    for (let hops = 0; current.location && current.status >= 300 && current.status < 400; hops++) {
      if (hops === MAX_REDIRECTS) throw new Error(`too many redirects from ${from.href}`);
      url = new URL(current.location, url);
      if (stopAt(url)) return { url, page: current };
      current = await this.send(url);
    }
    return { url, page: current };
  }
}

/**
 * Signs in to the dashboard as a browser does, over plain HTTP: /app/signin, the auth-server's
 * sign-in page (email, password, its csrf), and back through /app/callback with the session cookie.
 */
export async function signInToDashboard(email: string, password = TENANT_PASSWORD): Promise<DashboardClient> {
  const origin = new URL(stackInfo().baseUrl).origin;
  const browser = new Browser();
  const start = new URL('/app/signin', origin);
  const login = await browser.follow(start, await browser.send(start));
  const form = /<form method="post" action="([^"]+)"/.exec(login.page.html);
  const loginCsrf = csrfOf(login.page.html);
  if (login.page.status !== 200 || !form || !loginCsrf) {
    throw new Error(`no sign-in form at ${login.url.href} (${login.page.status}): ${login.page.html.slice(0, 500)}`);
  }
  const action = new URL(form[1]!.replaceAll('&amp;', '&'), login.url);
  const signedIn = await browser.follow(action, await browser.send(action, { form: { email, password, csrf: loginCsrf } }));
  if (signedIn.url.origin !== origin || signedIn.page.status !== 200) {
    throw new Error(`the sign-in ended at ${signedIn.url.href} (${signedIn.page.status}): ${signedIn.page.html.slice(0, 500)}`);
  }
  let csrf = csrfOf(signedIn.page.html);
  const seen = (page: DashboardPage): DashboardPage => {
    csrf = csrfOf(page.html) ?? csrf;
    return page;
  };
  return {
    origin,
    get: async (path) => seen(await browser.send(new URL(path, origin))),
    post: async (path, fields = {}) => seen(await browser.send(new URL(path, origin), { form: { ...(csrf && { csrf }), ...fields } })),
    postRaw: async (path, body) =>
      seen(await browser.send(new URL(path, origin), { form: `csrf=${encodeURIComponent(csrf ?? '')}&${body}` })),
  };
}
