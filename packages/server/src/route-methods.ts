import type { FastifyInstance } from 'fastify';
import Router, { type HTTPMethod } from 'find-my-way';

/** Methods a path is not told about: HEAD follows GET, OPTIONS is the CORS preflight of every path. */
const UNLISTED = new Set(['HEAD', 'OPTIONS']);

/** The options of the server's router that decide which paths a route matches. */
export interface RouteMatching {
  ignoreTrailingSlash: boolean;
  ignoreDuplicateSlashes: boolean;
  maxParamLength: number;
}

/**
 * The methods each route's path takes, so that a request with another method (a GET on `POST /v2/scrape`) is told
 * which ones, rather than that the path has no route. A router of Fastify's own kind, with its matching options, holds
 * every route under every method it was added with. Registered before the routes: it reads them as they are added.
 */
export class RouteMethods {
  readonly #router: Router.Instance<Router.HTTPVersion.V1>;
  /** The methods routes were added with, in the order they came. */
  readonly #methods = new Set<HTTPMethod>();

  constructor(app: FastifyInstance, matching: RouteMatching) {
    this.#router = Router(matching);
    app.addHook('onRoute', (route) => {
      if (route.url === '*') return;
      for (const method of [route.method].flat() as HTTPMethod[]) {
        if (UNLISTED.has(method)) continue;
        this.#methods.add(method);
        this.#router.on(method, route.url, () => undefined);
      }
    });
  }

  /** The methods a route takes at `path` (its query left out), in the order they were added; none: no route. */
  of(path: string): string[] {
    const plain = path.split('?', 1)[0] ?? path;
    return [...this.#methods].filter((method) => this.#router.find(method, plain) !== null);
  }
}
