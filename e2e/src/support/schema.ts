type SchemaType = 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean' | 'null';

/** The parts of an OpenAPI 3 schema the REST API's answers use. */
interface Schema {
  $ref?: string;
  /** One type, or (OpenAPI 3.1) a list of them, `null` among them when the value may be null. */
  type?: SchemaType | SchemaType[];
  format?: string;
  nullable?: boolean;
  enum?: unknown[];
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  items?: Schema;
  oneOf?: Schema[];
  allOf?: Schema[];
}

export interface OpenApiDocument {
  components: { schemas: Record<string, Schema> };
}

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})$/;

/**
 * Where `value` departs from the document's schema `name`, field by field (one line per
 * departure, with its path): a missing required field, a field the schema does not declare, a
 * wrong type, a null where none is allowed, a value outside an enum, a date-time that is none.
 */
export function schemaMismatches(document: OpenApiDocument, name: string, value: unknown): string[] {
  const found: string[] = [];
  const resolve = (schema: Schema): Schema => (schema.$ref ? resolve(document.components.schemas[schema.$ref.split('/').pop()!]!) : schema);
  const check = (raw: Schema, at: unknown, path: string): void => {
    const schema = resolve(raw);
    if (schema.allOf) return schema.allOf.forEach((part) => check(part, at, path));
    if (schema.oneOf) {
      const fits = schema.oneOf.some((option) => {
        const before = found.length;
        check(option, at, path);
        const ok = found.length === before;
        found.length = before;
        return ok;
      });
      if (!fits) found.push(`${path}: fits none of its oneOf`);
      return;
    }
    const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
    if (at === null) {
      if (!schema.nullable && !types.includes('null')) found.push(`${path}: null, not nullable`);
      return;
    }
    if (schema.enum && !schema.enum.includes(at)) found.push(`${path}: ${JSON.stringify(at)} not in ${JSON.stringify(schema.enum)}`);
    const type = types.find((t) => t !== 'null') ?? (schema.properties ? 'object' : undefined);
    switch (type) {
      case 'object': {
        if (typeof at !== 'object' || Array.isArray(at)) return void found.push(`${path}: not an object`);
        const record = at as Record<string, unknown>;
        for (const field of schema.required ?? []) if (!(field in record)) found.push(`${path}.${field}: missing`);
        for (const [field, fieldValue] of Object.entries(record)) {
          const declared = schema.properties?.[field];
          if (declared) check(declared, fieldValue, `${path}.${field}`);
          else if (typeof schema.additionalProperties === 'object') check(schema.additionalProperties, fieldValue, `${path}.${field}`);
          else if (schema.additionalProperties !== true) found.push(`${path}.${field}: not in the schema`);
        }
        return;
      }
      case 'array':
        if (!Array.isArray(at)) return void found.push(`${path}: not an array`);
        return at.forEach((item, i) => check(schema.items ?? {}, item, `${path}[${i}]`));
      case 'integer':
        if (!Number.isInteger(at)) found.push(`${path}: not an integer`);
        return;
      case 'number':
      case 'boolean':
        if (typeof at !== type) found.push(`${path}: not a ${type}`);
        return;
      case 'string':
        if (typeof at !== 'string') return void found.push(`${path}: not a string`);
        if (schema.format === 'date-time' && !ISO_INSTANT.test(at)) found.push(`${path}: not a date-time`);
        return;
      default:
        return;
    }
  };
  check({ $ref: `#/components/schemas/${name}` }, value, name);
  return found;
}
