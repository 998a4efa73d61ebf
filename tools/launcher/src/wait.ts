/** Polls a URL until it answers 200, or fails after the timeout naming what did not come up. */
export async function waitForOk(url: string, timeoutMs: number, isAlive: () => boolean = () => true): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  while (Date.now() < deadline) {
    if (!isAlive()) throw new Error(`${url}: the process exited before it was ready`);
    try {
      const res = await fetch(url);
      if (res.ok) return;
      last = `HTTP ${res.status}: ${(await res.text()).slice(0, 300)}`;
    } catch (err) {
      last = err instanceof Error ? err.message : String(err);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} was not ready within ${timeoutMs} ms (${last})`);
}
