import { type EdgeSubject, requirementOf } from '#libs/contracts';
import { Auth } from '#libs/scopes';

/**
 * Declares a route as the edge of one bus subject. What it requires of its caller (no
 * credential, an optional one, any credential or an API key only, and the scope) is that
 * subject's catalog entry, the one the MCP tools and the serving service read as well.
 */
export function Operation(subject: EdgeSubject): MethodDecorator {
  return Auth.operation(subject, requirementOf(subject));
}
