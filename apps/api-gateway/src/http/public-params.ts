import { createParamDecorator, type ExecutionContext, Param } from '@nestjs/common';
import { ApiParam } from '@nestjs/swagger';
import { CONFIRMATION_TOKEN_PATTERN, isUuid, type Principal } from '#libs/contracts';
import type { AuthenticatedRequest } from '#libs/edge';
import { ProblemError } from '#libs/problem';

/** A public slug: lowercase letters, digits and hyphens, at most 60 characters. */
export const SLUG_PATTERN = /^[a-z0-9-]{1,60}$/;

export function isConfirmationToken(value: unknown): value is string {
  return typeof value === 'string' && CONFIRMATION_TOKEN_PATTERN.test(value);
}

/** A uuid or a slug; anything else cannot name a signup. */
export function isSlugOrId(value: unknown): value is string {
  return typeof value === 'string' && (isUuid(value) || SLUG_PATTERN.test(value));
}

function documented(name: string, schema: Record<string, unknown>, description: string, param: ParameterDecorator): ParameterDecorator {
  return (target, key, index) => {
    param(target, key, index);
    if (key !== undefined) {
      const descriptor = Object.getOwnPropertyDescriptor(target, key)!;
      ApiParam({ name, schema, description })(target, key, descriptor);
    }
  };
}

/**
 * A confirmation token path parameter. Anything that is not a well-formed token is not found,
 * exactly like an unknown one, without asking the service.
 */
export function ConfirmationTokenParam(name = 'confirmationToken'): ParameterDecorator {
  const param = Param(name, {
    transform: (value: unknown) => {
      if (!isConfirmationToken(value)) throw new ProblemError('not_found', 'No registration has this confirmation token.');
      return value;
    },
  });
  return documented(
    name,
    { type: 'string', pattern: CONFIRMATION_TOKEN_PATTERN.source },
    'The confirmationToken returned at registration (cnf_…).',
    param,
  );
}

/** A signup's slug or uuid path parameter; anything else is not found without asking the service. */
export function SlugOrIdParam(name = 'slugOrId'): ParameterDecorator {
  const param = Param(name, {
    transform: (value: unknown) => {
      if (!isSlugOrId(value)) throw new ProblemError('not_found', 'No published signup has this slug or id.');
      return isUuid(value) ? value.toLowerCase() : value;
    },
  });
  return documented(name, { type: 'string', maxLength: 60 }, 'The signup slug (lowercase letters, digits, hyphens) or its uuid.', param);
}

/** The caller on a route where a credential is optional: undefined for anonymous calls. */
export const OptionalPrincipal = createParamDecorator(
  (_data: unknown, context: ExecutionContext): Principal | undefined => context.switchToHttp().getRequest<AuthenticatedRequest>().principal,
);
