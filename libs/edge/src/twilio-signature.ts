import { createHmac } from 'node:crypto';
import { constantTimeEqual } from '#libs/contracts';

/** A urlencoded body as Fastify parses it: a repeated key gives an array. */
export type FormParams = Record<string, string | string[] | undefined>;

/**
 * Twilio's request signature: base64 HMAC-SHA1, keyed by the account's auth token, of the full
 * URL Twilio called followed by every POST parameter, sorted by name, as name then value (a
 * repeated parameter once per value, values sorted).
 */
export function twilioSignature(authToken: string, url: string, params: FormParams): string {
  let data = url;
  for (const key of Object.keys(params).sort()) {
    const value = params[key];
    for (const item of Array.isArray(value) ? [...value].sort() : value === undefined ? [] : [value]) data += key + item;
  }
  return createHmac('sha1', authToken).update(data, 'utf8').digest('base64');
}

/** Whether X-Twilio-Signature is Twilio's for this request, compared in constant time. */
export function isTwilioSignatureValid(authToken: string, signature: string | undefined, url: string, params: FormParams): boolean {
  if (!signature) return false;
  return constantTimeEqual(signature, twilioSignature(authToken, url, params));
}
