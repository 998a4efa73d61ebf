const decoder = new TextDecoder();

/** The JSON value in a message body, or undefined when the body is not JSON. */
export function parseJson(data: Uint8Array): unknown {
  try {
    return JSON.parse(textOf(data)) as unknown;
  } catch {
    return undefined;
  }
}

/** A message body as text (UTF-8). */
export function textOf(data: Uint8Array): string {
  return decoder.decode(data);
}
