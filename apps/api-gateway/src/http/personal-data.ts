import { applyDecorators, Header } from '@nestjs/common';

/**
 * The answer carries personal data (names, contacts): no cache, shared or private, may keep it.
 * Set once the credential is accepted, so the route's problems after that carry it too.
 */
export function NoStore(): MethodDecorator {
  return applyDecorators(Header('Cache-Control', 'no-store'));
}

/**
 * A route whose URL is a secret (the confirmation token) and whose answer is personal data:
 * not stored, and the URL never sent on as a Referer.
 */
export function SecretUrlPersonalData(): MethodDecorator {
  return applyDecorators(NoStore(), Header('Referrer-Policy', 'no-referrer'));
}
