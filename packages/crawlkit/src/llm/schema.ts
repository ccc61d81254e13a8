import { lazyModule } from '@crawlkit/options/lazy-module';
import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import type { Ajv2019 } from 'ajv/dist/2019.js';
import type { Ajv2020 } from 'ajv/dist/2020.js';

import { CrawlkitError } from '../errors.js';
import { toJsonSchema } from './schema-input.js';

export type JsonSchema = Record<string, unknown>;

export { toJsonSchema };

/** The schema sent to the model and used for validation, plus how to get the caller's value back out. */
export interface PreparedSchema {
  /** Normalised (reference §3.2) and, when the root is not an object, wrapped in `{ value }`. */
  schema: JsonSchema;
  /** Whether the root was wrapped: structured-output APIs want an object at the root. */
  wrapped: boolean;
}

function rootIsObject(schema: JsonSchema): boolean {
  if (schema.type === 'object') return true;
  if (schema.type === undefined && typeof schema.properties === 'object') return true;
  return false;
}

/** Normalises a caller's schema (reference §3.2) and wraps a non-object root as `{ value: <schema> }`. */
export function prepareSchema(input: JsonSchema): PreparedSchema {
  const normalized = normalizeJsonSchema(input);
  if (rootIsObject(normalized)) return { schema: normalized, wrapped: false };
  const { $schema, definitions, $defs, ...inner } = normalized;
  const wrapper: JsonSchema = {
    type: 'object',
    properties: { value: inner },
    required: ['value'],
    additionalProperties: false,
  };
  if ($schema !== undefined) wrapper.$schema = $schema;
  if (definitions !== undefined) wrapper.definitions = definitions;
  if ($defs !== undefined) wrapper.$defs = $defs;
  return { schema: wrapper, wrapped: true };
}

const ajvOptions = { strict: false, allErrors: true, validateFormats: false, logger: false } as const;
// Ajv (about 95 modules) is loaded with the first answer checked against a schema: only LLM formats need it. One
// instance per dialect, made with its module.
const draft07 = lazyModule(async () => new (await import('ajv')).Ajv(ajvOptions));
const draft2019 = lazyModule(async () => new (await import('ajv/dist/2019.js')).Ajv2019(ajvOptions));
const draft2020 = lazyModule(async () => new (await import('ajv/dist/2020.js')).Ajv2020(ajvOptions));

function ajvFor(schema: JsonSchema): Promise<Ajv | Ajv2019 | Ajv2020> {
  const dialect = typeof schema.$schema === 'string' ? schema.$schema : '';
  if (dialect.includes('2020-12')) return draft2020();
  if (dialect.includes('2019-09')) return draft2019();
  return draft07();
}

/**
 * Compiled validators by schema text. Every request brings its own schema object, so identity caching would miss;
 * Ajv's own cache is emptied after each compile (it keys by object and would grow for ever).
 */
const compiled = new Map<string, ValidateFunction>();
const MAX_COMPILED = 100;

async function compile(schema: JsonSchema): Promise<ValidateFunction> {
  const key = JSON.stringify(schema);
  const cached = compiled.get(key);
  if (cached) {
    compiled.delete(key);
    compiled.set(key, cached);
    return cached;
  }
  const ajv = await ajvFor(schema);
  let validate: ValidateFunction;
  try {
    validate = ajv.compile(schema);
  } catch (error) {
    throw new CrawlkitError('BAD_REQUEST', `The json schema is not a valid JSON Schema: ${(error as Error).message}`, {
      cause: error,
    });
  } finally {
    ajv.removeSchema(schema);
  }
  compiled.set(key, validate);
  if (compiled.size > MAX_COMPILED) compiled.delete(compiled.keys().next().value!);
  return validate;
}

/** Checks a value against a JSON Schema; `errors` is a short readable list when it does not validate. */
export async function validateAgainst(
  schema: JsonSchema,
  value: unknown,
): Promise<{ valid: true } | { valid: false; errors: string }> {
  const validate = await compile(schema);
  if (validate(value)) return { valid: true };
  return { valid: false, errors: describeErrors(validate.errors ?? []) };
}

function describeErrors(errors: readonly ErrorObject[]): string {
  return errors
    .slice(0, 10)
    .map((e) => {
      const where = e.instancePath || '(root)';
      const extra =
        e.keyword === 'additionalProperties'
          ? ` (${String((e.params as { additionalProperty?: unknown }).additionalProperty)})`
          : e.keyword === 'enum'
            ? ` (${JSON.stringify((e.params as { allowedValues?: unknown }).allowedValues)})`
            : '';
      return `${where} ${e.message ?? e.keyword}${extra}`;
    })
    .join('; ');
}

/**
 * Normalises a JSON schema for extraction (reference §3.2): drops `additionalProperties` from objects that have
 * `properties`, and removes `required` entries that name missing properties. Returns a new object.
 */
export function normalizeJsonSchema(schema: Record<string, unknown>): Record<string, unknown> {
  const visit = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(visit);
    if (node === null || typeof node !== 'object') return node;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) out[key] = visit(value);
    const props = out.properties;
    if (props && typeof props === 'object' && !Array.isArray(props)) {
      delete out.additionalProperties;
      if (Array.isArray(out.required)) {
        out.required = out.required.filter((name) => typeof name === 'string' && name in props);
      }
    }
    return out;
  };
  return visit(schema) as Record<string, unknown>;
}
