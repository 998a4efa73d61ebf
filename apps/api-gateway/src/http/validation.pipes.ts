import { Body, Param, Query, type PipeTransform } from '@nestjs/common';
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

/** A path parameter that must be a uuid ("Invalid uuid" on the parameter's name). */
export function UuidParam(name: string): ParameterDecorator {
  return Param(name, { transform: (value: unknown) => requireUuid(value, name) });
}
