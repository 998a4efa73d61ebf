import { applyDecorators, type Type } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiExtraModels, getSchemaPath } from '@nestjs/swagger';

const oneOf = (models: Type[]) => ({ oneOf: models.map((model) => ({ $ref: getSchemaPath(model) })) });

/** A body that is one of several DTOs (e.g. one slot, or `{slots: [...]}`). */
export function ApiBodyOneOf(description: string, ...models: Type[]): MethodDecorator {
  return applyDecorators(ApiExtraModels(...models), ApiBody({ description, schema: oneOf(models) }));
}

/** A 201 answer that is one of several views, matching ApiBodyOneOf. */
export function ApiCreatedOneOf(description: string, ...models: Type[]): MethodDecorator {
  return applyDecorators(ApiExtraModels(...models), ApiCreatedResponse({ description, schema: oneOf(models) }));
}
