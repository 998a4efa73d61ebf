import { ProblemError } from '#libs/problem';

export type ParsedCredential = { kind: 'none' } | { kind: 'api_key'; key: string } | { kind: 'bearer_token'; token: string };

const BEARER = /^Bearer ([\x21-\x7e]+)$/i;

/**
 * Reads the Authorization header. Absent: none. Present but not `Bearer <token>` with
 * exactly one space (wrong scheme, missing space, empty token): malformed_credentials.
 */
export function parseAuthorization(header: string | string[] | undefined): ParsedCredential {
  if (header === undefined) return { kind: 'none' };
  const value = Array.isArray(header) ? header.join(',') : header;
  const match = BEARER.exec(value);
  if (!match) {
    throw new ProblemError('malformed_credentials', 'The Authorization header must be "Bearer <API key or access token>".');
  }
  const token = match[1]!;
  return token.startsWith('sgn_') ? { kind: 'api_key', key: token } : { kind: 'bearer_token', token };
}

export function missingCredentials(): ProblemError {
  return new ProblemError('missing_credentials', 'Send Authorization: Bearer <API key or access token>.');
}
