/**
 * Reading values out of structured data (`structured-data.ts`'s JSON-LD objects, microdata items in the same form):
 * the helpers the `product` and `jobPosting` readers share.
 */
import type { JsonObject } from './structured-data.js';

export const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A value as a list: an array as it is, one value as a list of one, nothing as none. */
export const list = (value: unknown): unknown[] =>
  value === undefined || value === null ? [] : Array.isArray(value) ? value : [value];

/** A plain string of a JSON-LD value: itself, its `name`, or its `@value`. */
export function text(value: unknown): string | undefined {
  const first = list(value)[0];
  if (typeof first === 'string') return first.trim() || undefined;
  if (typeof first === 'number') return String(first);
  if (isObject(first)) return text(first.name ?? first['@value']);
  return undefined;
}

/** A schema.org name without its `https://schema.org/` prefix (`https://schema.org/InStock` is `InStock`). */
export const schemaName = (value: string): string => value.replace(/^https?:\/\/schema\.org\//i, '').trim();

export function typesOf(node: JsonObject): string[] {
  return list(node['@type']).filter((t): t is string => typeof t === 'string');
}

/** `url` resolved against `base`, or as it is when it is no URL. */
export function resolve(url: string, base: string): string {
  try {
    return new URL(url, base).href;
  } catch {
    return url;
  }
}

/**
 * The first object of a list of JSON-LD objects whose `@type` matches `types`, looking inside them breadth first
 * (a page's `mainEntity`, an `ItemPage`, a `@graph`), at most 6 levels down.
 */
export function findTyped(nodes: readonly JsonObject[], types: RegExp): JsonObject | undefined {
  const queue: { node: JsonObject; depth: number }[] = nodes.map((node) => ({ node, depth: 0 }));
  while (queue.length) {
    const { node, depth } = queue.shift()!;
    if (typesOf(node).some((t) => types.test(t))) return node;
    if (depth >= 6) continue;
    for (const value of Object.values(node)) {
      for (const child of list(value)) if (isObject(child)) queue.push({ node: child, depth: depth + 1 });
    }
  }
  return undefined;
}
