import type { FastifyInstance } from 'fastify';

/** Methods a path is not told about: HEAD follows GET, OPTIONS is the CORS preflight of every path. */
const UNLISTED = new Set(['HEAD', 'OPTIONS']);

/** A route's path as a pattern: `:param` one segment, `*` the rest; the rest of the path as it is. */
function patternOf(url: string): RegExp {
  const source = url
    .split('/')
    .map((segment) =>
      segment.startsWith(':') ? '[^/]+' : segment === '*' ? '.*' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
    )
    .join('/');
  return new RegExp(`^${source}$`);
}

/** The path the router compares: one slash between segments, none at the end (the router's own options). */
const normalized = (path: string): string => path.replace(/\/{2,}/g, '/').replace(/(.)\/$/, '$1');

/**
 * The methods each route's path takes, so that a request with another method (a GET on `POST /v2/scrape`) is told
 * which ones, rather than that the path has no route. Registered before the routes: it reads them as they are added.
 */
export class RouteMethods {
  readonly #routes: { pattern: RegExp; method: string }[] = [];

  constructor(app: FastifyInstance) {
    app.addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) {
        if (!UNLISTED.has(method) && route.url !== '*') this.#routes.push({ pattern: patternOf(route.url), method });
      }
    });
  }

  /** The methods a route takes at `path` (its query left out), in the order they were added; none: no route. */
  of(path: string): string[] {
    const plain = normalized(path.split('?', 1)[0] ?? path);
    return [...new Set(this.#routes.filter((route) => route.pattern.test(plain)).map((route) => route.method))];
  }
}
