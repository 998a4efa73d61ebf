import { Body, Param, Query, type PipeTransform } from '@nestjs/common';
import { ApiParam } from '@nestjs/swagger';
import { requireUuid, validateInput } from '#libs/contracts';

class DtoPipe<T extends object> implements PipeTransform<unknown, Promise<T>> {
  constructor(
    private readonly dto: new () => T,
    private readonly root: string,
  ) {}

  transform(value: unknown): Promise<T> {
    return validateInput(this.dto, value ?? (this.root === 'query' ? {} : undefined), this.root);
  }
}

/** The JSON body validated against a DTO (422 validation_failed with itemized errors). */
export function ValidBody<T extends object>(dto: new () => T): ParameterDecorator {
  return Body(new DtoPipe(dto, 'body'));
}

/** The query string validated against a DTO. */
export function ValidQuery<T extends object>(dto: new () => T): ParameterDecorator {
  return Query(new DtoPipe(dto, 'query'));
}

/** A path parameter that must be a uuid ("Invalid uuid" on the parameter's name), documented as such. */
export function UuidParam(name: string): ParameterDecorator {
  const param = Param(name, { transform: (value: unknown) => requireUuid(value, name) });
  return (target, key, index) => {
    param(target, key, index);
    if (key !== undefined) {
      const descriptor = Object.getOwnPropertyDescriptor(target, key)!;
      ApiParam({ name, schema: { type: 'string', format: 'uuid' } })(target, key, descriptor);
    }
  };
}
