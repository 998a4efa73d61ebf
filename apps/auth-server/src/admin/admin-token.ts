import { constantTimeEqual } from '#libs/contracts';
import { ProblemError } from '#libs/problem';

const CHALLENGE = { 'www-authenticate': 'Bearer realm="auth-server admin"' };

/**
 * Checks an Authorization header against the admin token, in constant time. Throws the 401
 * problem that fits.
 */
export function checkAdminAuthorization(header: string | undefined, adminToken: string): void {
  if (header === undefined || header.trim() === '') {
    throw new ProblemError('missing_credentials', 'Send Authorization: Bearer <ADMIN_TOKEN>.', { headers: CHALLENGE });
  }
  const match = /^Bearer ([^\s]+)$/i.exec(header);
  if (!match) {
    throw new ProblemError('malformed_credentials', 'Use the Bearer scheme followed by one space and the admin token.', {
      headers: CHALLENGE,
    });
  }
  if (!constantTimeEqual(match[1]!, adminToken)) {
    throw new ProblemError('invalid_credentials', 'The admin token is not recognized.', { headers: CHALLENGE });
  }
}
