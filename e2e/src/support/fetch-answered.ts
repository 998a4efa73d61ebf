/** How many times fetchAnswered sends a request whose connection keeps breaking before it gives up. */
const ATTEMPTS = 5;

/**
 * Whether fetch failed because the connection broke under the request before an answer came: reset,
 * closed while the body was still going out, or closed by the server as the request left on a
 * kept-alive connection (the two idle timers racing when the machine is loaded).
 */
export function connectionBroke(err: unknown): boolean {
  const code = (err as { cause?: { code?: unknown } } | undefined)?.cause?.code;
  // By name: fetch is the runner's, so its TypeError is of another realm than the test's (jest runs tests in a vm context).
  return (err as Error | undefined)?.name === 'TypeError' && (code === 'EPIPE' || code === 'ECONNRESET' || code === 'UND_ERR_SOCKET');
}

/**
 * fetch, again (a few times) when the connection broke before an answer came, as any HTTP client
 * does: a kept-alive connection the server closed while idle, or after refusing a body over the
 * limit, breaks the next request sent on it. The body must be one that can be sent again (text or bytes).
 */
export async function fetchAnswered(url: string | URL, init: RequestInit = {}): Promise<Response> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fetch(url, init);
    } catch (err) {
      if (!connectionBroke(err) || attempt === ATTEMPTS) throw err;
    }
  }
}
