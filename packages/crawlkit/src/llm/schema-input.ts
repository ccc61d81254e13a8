import { z } from 'zod';

import { CrawlkitError } from '../errors.js';

/** A schema object of a validation library that can describe itself as JSON Schema (Standard JSON Schema). */
interface StandardJsonSchemaLike {
  '~standard': { jsonSchema: { input(options: { target: string }): unknown } };
}

function isStandardJsonSchema(value: unknown): value is StandardJsonSchemaLike {
  const standard = (value as { '~standard'?: { jsonSchema?: { input?: unknown } } } | null)?.['~standard'];
  return typeof standard?.jsonSchema?.input === 'function';
}

function isZod4(value: unknown): value is z.ZodType {
  return typeof value === 'object' && value !== null && '_zod' in value;
}

function isZod3(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    '_def' in value &&
    typeof (value as { parse?: unknown }).parse === 'function'
  );
}

/** Whether a value is a schema object of a validation library (zod and the like) rather than a JSON Schema. */
export function isSchemaLibraryObject(value: unknown): boolean {
  return isStandardJsonSchema(value) || isZod4(value) || isZod3(value);
}

/**
 * Turns a zod schema (or any schema implementing Standard JSON Schema) into a draft-07 JSON Schema; plain JSON Schema
 * objects pass through unchanged.
 */
export function toJsonSchema(schema: unknown): Record<string, unknown> {
  if (isStandardJsonSchema(schema))
    return schema['~standard'].jsonSchema.input({ target: 'draft-07' }) as Record<string, unknown>;
  if (isZod4(schema)) return z.toJSONSchema(schema, { target: 'draft-07' });
  if (isZod3(schema)) {
    throw new CrawlkitError(
      'BAD_REQUEST',
      'A zod 3 schema cannot be converted: pass a zod 4 schema or a JSON Schema object.',
    );
  }
  return schema as Record<string, unknown>;
}

/** The type of a schema-library object accepted where a JSON Schema is expected (zod 4, Standard JSON Schema). */
export type SchemaLibraryObject = { readonly '~standard': unknown } | { readonly _zod: unknown };

/** Accepts a zod (or Standard JSON Schema) object in a v2 body and turns it into a JSON Schema. */
export const schemaLibraryObject = z
  .custom<SchemaLibraryObject>((value) => isSchemaLibraryObject(value), { message: 'Expected a schema object' })
  .transform((value, ctx) => {
    try {
      return toJsonSchema(value);
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: (error as Error).message });
      return z.NEVER;
    }
  });
