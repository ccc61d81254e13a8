/**
 * A systematic probe of the v2 request surface: the fields of a request schema (read from the zod schema itself, so
 * the probe follows it), the bad values of each field's kind, and the check of an answer to a bad request.
 */
import { ERROR_CODES } from 'crawlkit';

/** A zod schema, as far as the probe reads it (its `_zod.def`). */
export type Schema = unknown;

interface Def {
  type: string;
  shape?: Record<string, Schema>;
  in?: Schema;
  out?: Schema;
  innerType?: Schema;
  element?: Schema;
  options?: Schema[];
  entries?: Record<string, unknown>;
  checks?: { _zod: { def: { check: string; format?: string } } }[];
  format?: string;
}

const defOf = (schema: Schema): Def => (schema as { _zod: { def: Def } })._zod.def;

/** What a field takes, as far as the probe needs to know to send it a bad value. */
export type FieldKind = 'string' | 'number' | 'integer' | 'boolean' | 'array' | 'object' | 'enum' | 'other';

export interface Field {
  /** Path of the field in the body. */
  path: string[];
  kind: FieldKind;
  nullable: boolean;
  /** The strict object's own fields, for an object field (one level down). */
  fields?: Field[];
}

/** The schema under its wrappers (optional, default, a preprocess or transform pipe). */
export function unwrap(schema: Schema): { schema: Schema; nullable: boolean } {
  let nullable = false;
  let current = schema;
  for (let i = 0; i < 20; i++) {
    const def = defOf(current);
    if (def.type === 'nullable') nullable = true;
    if (['optional', 'nullable', 'default', 'prefault', 'readonly', 'catch', 'nonoptional'].includes(def.type)) {
      current = def.innerType!;
    } else if (def.type === 'pipe') {
      // A preprocess is pipe(transform, schema); a transform is pipe(schema, transform).
      current = defOf(def.in).type === 'transform' ? def.out! : def.in!;
    } else if (def.type === 'lazy') {
      current = (current as { _zod: { def: { getter(): Schema } } })._zod.def.getter();
    } else break;
  }
  return { schema: current, nullable };
}

function kindOf(schema: Schema): FieldKind {
  const def = defOf(schema);
  switch (def.type) {
    case 'string':
      return 'string';
    case 'number': {
      const int = def.format?.includes('int') || def.checks?.some((c) => c._zod.def.format?.includes('int'));
      return int ? 'integer' : 'number';
    }
    case 'int':
      return 'integer';
    case 'boolean':
      return 'boolean';
    case 'array':
      return 'array';
    case 'object':
      return 'object';
    case 'enum':
    case 'literal':
      return 'enum';
    default:
      return 'other';
  }
}

/** The fields of an object schema, one level of nested strict objects included. */
export function fieldsOf(schema: Schema, prefix: string[] = [], depth = 1): Field[] {
  const { schema: object } = unwrap(schema);
  const shape = defOf(object).shape;
  if (!shape) throw new Error(`not an object schema: ${defOf(object).type}`);
  return Object.entries(shape).map(([key, value]) => {
    const { schema: inner, nullable } = unwrap(value);
    const kind = kindOf(inner);
    const field: Field = { path: [...prefix, key], kind, nullable };
    if (kind === 'object' && depth > 0) field.fields = fieldsOf(inner, field.path, depth - 1);
    return field;
  });
}

export interface BadValue {
  label: string;
  /** The value, or raw JSON text for what JSON.stringify cannot write (`1e309`). */
  value?: unknown;
  raw?: string;
  /** Whether every field of this kind must refuse it (else it may be a value the field takes, as `0` or `""`). */
  invalid: boolean;
}

const LONG = 'x'.repeat(200_000);
const nested = (levels: number): unknown => (levels === 0 ? 1 : [nested(levels - 1)]);

/** The bad values sent to a field of `kind`. */
export function badValues(field: Field): BadValue[] {
  // A field that takes anything (kept for a client, not read) refuses nothing.
  if (field.kind === 'other') return [{ label: 'a number', value: 7, invalid: false }];
  const values: BadValue[] = [
    { label: 'null', value: null, invalid: !field.nullable },
    { label: 'deeply nested', value: nested(100), invalid: !['array', 'other'].includes(field.kind) },
    { label: 'an object', value: { nope: 1 }, invalid: !['object', 'other'].includes(field.kind) },
  ];
  switch (field.kind) {
    case 'string':
      values.push(
        { label: 'a number', value: 42, invalid: true },
        { label: 'empty string', value: '', invalid: false },
        { label: 'very long', value: LONG, invalid: false },
      );
      break;
    case 'number':
    case 'integer':
      values.push(
        { label: 'a string', value: '5', invalid: true },
        { label: 'negative', value: -1, invalid: false },
        { label: 'zero', value: 0, invalid: false },
        { label: 'huge', value: 2 ** 62, invalid: false },
        { label: '1e309', raw: '1e309', invalid: true },
        { label: 'fractional', value: 1.5, invalid: field.kind === 'integer' },
      );
      break;
    case 'boolean':
      values.push({ label: 'a string', value: 'true', invalid: true }, { label: 'a number', value: 1, invalid: true });
      break;
    case 'array':
      values.push(
        { label: 'a string', value: 'x', invalid: false },
        { label: 'empty array', value: [], invalid: false },
        { label: 'array of null', value: [null], invalid: false },
        { label: 'long array', value: Array.from({ length: 2_000 }, () => 'x'), invalid: false },
      );
      break;
    case 'object':
      values.push(
        { label: 'a string', value: 'x', invalid: false },
        { label: 'an array', value: [], invalid: true },
        { label: 'empty object', value: {}, invalid: false },
      );
      break;
    case 'enum':
      values.push(
        { label: 'wrong enum', value: 'no-such-value', invalid: true },
        { label: 'a number', value: 7, invalid: true },
      );
      break;
  }
  return values;
}

/** The body with `value` at `path` (a copy), as JSON text: raw JSON is spliced in for what JSON cannot write. */
export function bodyWith(base: Record<string, unknown>, path: string[], bad: BadValue): string {
  const marker = '"__PROBE_RAW__"';
  const copy = structuredClone(base);
  let at: Record<string, unknown> = copy;
  for (const key of path.slice(0, -1)) {
    if (typeof at[key] !== 'object' || at[key] === null || Array.isArray(at[key])) at[key] = {};
    at = at[key] as Record<string, unknown>;
  }
  at[path.at(-1)!] = bad.raw === undefined ? bad.value : '__PROBE_RAW__';
  const text = JSON.stringify(copy);
  return bad.raw === undefined ? text : text.replace(marker, bad.raw);
}

export interface ProbeAnswer {
  status: number;
  body: Record<string, unknown> | undefined;
  text: string;
}

/** All that an error answer says: `error` and each detail's message and path. */
export function sayings(body: Record<string, unknown>): string {
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  const details = Array.isArray(body.details) ? (body.details as { message?: unknown; path?: unknown }[]) : [];
  const parts = details.flatMap((d) => [text(d.message), Array.isArray(d.path) ? d.path.join('.') : '']);
  return [text(body.error), ...parts].join(' | ');
}

/**
 * What is wrong with the answer to a bad request, or undefined: a status that is not 4xx (a 200 only where the value
 * may be a good one), not the v2 error shape, a code outside `ERROR_CODES`, or a message that does not name the field.
 */
export function problemOf(
  answer: ProbeAnswer,
  names: readonly string[] | undefined,
  mustRefuse: boolean,
): string | undefined {
  if (answer.status === 0) return 'no answer (hang or reset)';
  if (answer.status >= 500) return `status ${answer.status}: ${answer.text.slice(0, 200)}`;
  if (answer.status < 400) return mustRefuse ? `accepted (${answer.status})` : undefined;
  const body = answer.body;
  if (!body || body.success !== false || typeof body.error !== 'string') {
    return `not the v2 error shape: ${answer.text.slice(0, 200)}`;
  }
  if (typeof body.code !== 'string' || !Object.hasOwn(ERROR_CODES, body.code)) {
    return `code ${String(body.code)} not in ERROR_CODES`;
  }
  if (names !== undefined && !names.some((name) => sayings(body).includes(name))) {
    return `message does not name ${names.join(' or ')}: ${sayings(body).slice(0, 300)}`;
  }
  return undefined;
}
