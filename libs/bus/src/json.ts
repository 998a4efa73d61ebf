const decoder = new TextDecoder();

/** The JSON value in a message body, or undefined when the body is not JSON. */
export function parseJson(data: Uint8Array): unknown {
  try {
    return JSON.parse(decoder.decode(data)) as unknown;
  } catch {
    return undefined;
  }
}
