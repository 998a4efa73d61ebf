import { generateSchema } from '@nestjs/swagger';

/** A JSON Schema (2020-12) object, as MCP tools and other machine clients read it. */
export type JsonSchema = { [keyword: string]: unknown };

const COMPONENT_REF = /^#\/components\/schemas\/(.+)$/;

export interface JsonSchemaOptions {
  /** Unknown properties are refused (an input validated with forbidNonWhitelisted): `additionalProperties: false` on every object. */
  closed?: boolean;
}

/**
 * The JSON Schema of a DTO or view class, from the same decorators that document it in OpenAPI:
 * self-contained (referenced classes under `$defs`), OpenAPI's `nullable` as a `null` type and
 * `example` as `examples`.
 */
export function jsonSchemaOf(type: new () => object, options: JsonSchemaOptions = {}): JsonSchema {
  const { schema, schemas } = generateSchema(type);
  const defs: Record<string, JsonSchema> = {};
  const convert = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(convert);
    if (typeof node !== 'object' || node === null) return node;
    const out: JsonSchema = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === 'nullable' || key === 'example') continue;
      if (key === '$ref' && typeof value === 'string') {
        const name = COMPONENT_REF.exec(value)?.[1];
        if (!name) throw new Error(`Unexpected schema reference ${value}`);
        out.$ref = `#/$defs/${name}`;
        if (!(name in defs)) {
          defs[name] = {};
          defs[name] = convert(schemas[name]) as JsonSchema;
        }
      } else if (key === 'properties') {
        out.properties = Object.fromEntries(
          Object.entries(value as Record<string, unknown>).map(([name, property]) => [name, convert(property)]),
        );
      } else {
        out[key] = convert(value);
      }
    }
    const source = node as JsonSchema;
    if (source.example !== undefined) out.examples = [source.example];
    if (options.closed && out.type === 'object' && out.properties) out.additionalProperties = false;
    return source.nullable === true ? nullable(out) : out;
  };
  const root = convert(schema) as JsonSchema;
  return Object.keys(defs).length > 0 ? { ...root, $defs: defs } : root;
}

/** Also admits null: in the type (and enum) of a plain schema, else as an alternative to the whole schema (a reference, a composition, no type). */
function nullable(schema: JsonSchema): JsonSchema {
  const composed = ['$ref', 'allOf', 'anyOf', 'oneOf'].some((keyword) => schema[keyword] !== undefined);
  if (composed || schema.type === undefined) {
    const { description, ...rest } = schema;
    return { ...(description !== undefined && { description }), anyOf: [rest, { type: 'null' }] };
  }
  const withNull: JsonSchema = { ...schema, type: [...[schema.type].flat(), 'null'] };
  if (Array.isArray(schema.enum)) withNull.enum = [...(schema.enum as unknown[]), null];
  return withNull;
}
