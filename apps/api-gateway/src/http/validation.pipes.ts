import { Body, Param, type PipeTransform, Query } from '@nestjs/common';
import { ApiParam } from '@nestjs/swagger';
import { requireUuid, validateInput } from '#libs/contracts';
import { ProblemError } from '#libs/problem';

class DtoPipe<T extends object> implements PipeTransform<unknown, Promise<T>> {
  constructor(
    private readonly dto: new () => T,
    private readonly root: string,
    private readonly whenAbsent: object | undefined = root === 'query' ? {} : undefined,
  ) {}

  transform(value: unknown): Promise<T> {
    // Only a body left out is read as whenAbsent: a JSON null sent is no object (422).
    return validateInput(this.dto, value === undefined ? this.whenAbsent : value, this.root);
  }
}

/** One thing, or several under `key`: decided by the presence of that key, then validated against the matching DTO. */
export type OneOrMany<T> = { many: false; items: [T] } | { many: true; items: T[] };

class OneOrManyPipe<One extends object, Many extends object> implements PipeTransform<unknown, Promise<OneOrMany<One>>> {
  constructor(
    private readonly one: new () => One,
    private readonly many: new () => Many,
    private readonly key: keyof Many & string,
  ) {}

  async transform(value: unknown): Promise<OneOrMany<One>> {
    if (typeof value === 'object' && value !== null && !Array.isArray(value) && Object.hasOwn(value, this.key)) {
      const validated = await validateInput(this.many, value, 'body');
      return { many: true, items: validated[this.key] as One[] };
    }
    return { many: false, items: [await validateInput(this.one, value, 'body')] };
  }
}

/**
 * A body that is either one `One`, or `{<key>: One[]}` for several at once (POST slots, items),
 * documented as a oneOf of the two DTOs.
 */
export function ValidOneOrMany<One extends object, Many extends object>(
  one: new () => One,
  many: new () => Many,
  key: keyof Many & string,
): ParameterDecorator {
  return Body(new OneOrManyPipe(one, many, key));
}

/** The JSON body validated against a DTO (422 validation_failed with itemized errors). */
export function ValidBody<T extends object>(dto: new () => T): ParameterDecorator {
  return Body(new DtoPipe(dto, 'body'));
}

/** A JSON body that may be left out (read as an empty object), validated against a DTO. */
export function ValidOptionalBody<T extends object>(dto: new () => T): ParameterDecorator {
  return Body(new DtoPipe(dto, 'body', {}));
}

/** An operation without fields: no body, or an empty object; any field of one is unknown. */
class NoBodyPipe implements PipeTransform<unknown, Record<string, never>> {
  transform(value: unknown): Record<string, never> {
    if (value === undefined) return {};
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw ProblemError.validation([{ path: 'body', message: 'Expected a JSON object' }]);
    }
    const fields = Object.keys(value);
    if (fields.length > 0) throw ProblemError.validation(fields.map((path) => ({ path, message: 'Unknown field' })));
    return {};
  }
}

/**
 * A write that takes no field (documented as an empty object): a body with fields is refused
 * like any unknown field, rather than ignored, so a stray body never runs the write.
 */
export function NoBody(): ParameterDecorator {
  return Body(new NoBodyPipe());
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
