/** The cookies of a request header, by name (the first of each name). */
export function parseCookies(header: string | undefined): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const part of (header ?? '').split(';')) {
    const pair = part.trim();
    const eq = pair.indexOf('=');
    if (eq < 1) continue;
    const name = pair.slice(0, eq);
    if (!cookies.has(name)) cookies.set(name, pair.slice(eq + 1));
  }
  return cookies;
}
