import { LRUCache } from 'lru-cache';
import type { z } from 'zod';

import { parseBody, type ParseResult } from './parse.js';

/** Bodies whose canonical JSON is longer than this are parsed every time (the memo stays small). */
const MAX_KEY_LENGTH = 32 * 1024;

/**
 * The canonical JSON of a body (object keys sorted), or undefined when the body holds anything JSON does not say
 * exactly (`undefined`, a function, a class instance, a non-finite number, -0, a sparse array) or is too long: two
 * bodies with the same canonical JSON are then the same request, whatever their key order.
 */
export function canonicalJson(value: unknown): string | undefined {
  const parts: string[] = [];
  let length = 0;
  const write = (s: string): boolean => {
    length += s.length;
    parts.push(s);
    return length <= MAX_KEY_LENGTH;
  };
  const walk = (v: unknown): boolean => {
    switch (typeof v) {
      case 'string':
        return write(JSON.stringify(v));
      case 'boolean':
        return write(v ? 'true' : 'false');
      case 'number':
        return Number.isFinite(v) && !Object.is(v, -0) && write(String(v));
      case 'object': {
        if (v === null) return write('null');
        if (Array.isArray(v)) {
          write('[');
          for (let i = 0; i < v.length; i++) {
            if (!(i in v) || (i > 0 && !write(',')) || !walk(v[i])) return false;
          }
          return write(']');
        }
        const proto = Object.getPrototypeOf(v) as unknown;
        if (proto !== Object.prototype && proto !== null) return false;
        const keys = Object.keys(v).sort();
        write('{');
        for (let i = 0; i < keys.length; i++) {
          const key = keys[i]!;
          if ((i > 0 && !write(',')) || !write(JSON.stringify(key)) || !write(':')) return false;
          if (!walk((v as Record<string, unknown>)[key])) return false;
        }
        return write('}');
      }
      default:
        return false;
    }
  };
  return walk(value) ? parts.join('') : undefined;
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}

/**
 * `parseBody` for one schema, memoised by the body's canonical JSON (a bounded LRU): a repeated body (a cache hit's
 * usual caller) is validated once. The parsed value is frozen, since every caller with the same body shares it;
 * refused bodies are parsed again each time (their error lists the issues of that very body).
 */
export function memoizedParser<S extends z.ZodType>(schema: S, max = 256): (body: unknown) => ParseResult<z.output<S>> {
  const memo = new LRUCache<string, { ok: true; value: z.output<S> }>({ max });
  return (body) => {
    const key = body !== null && typeof body === 'object' && !Array.isArray(body) ? canonicalJson(body) : undefined;
    if (key !== undefined) {
      const hit = memo.get(key);
      if (hit) return hit;
    }
    const parsed = parseBody(schema, body);
    if (parsed.ok && key !== undefined) memo.set(key, { ok: true, value: deepFreeze(parsed.value) });
    return parsed;
  };
}
