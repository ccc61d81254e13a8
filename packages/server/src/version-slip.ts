/** A path whose API version is missing or given twice, and the route it meant. */
export interface VersionSlip {
  /** `missing`: `/scrape` for `/v2/scrape`; `doubled`: `/v2/v2/scrape` for `/v2/scrape`. */
  kind: 'missing' | 'doubled';
  /** The path that has a route. */
  path: string;
  /** The methods that route takes. */
  methods: string[];
}

const VERSION = /^v\d+$/;

/**
 * The route a path with no route meant, when the slip is in its version: a client given the server's address where
 * it wants the address with `/v2` (n8n's Firecrawl credential, a plain HTTP client) asks for `/scrape`; a client that
 * adds `/v2` itself (firecrawl-js, firecrawl-py, firecrawl-cli, firecrawl-mcp) given the address with `/v2` asks for
 * `/v2/v2/scrape`. `methodsOf` tells the methods a path's routes take (none: no route).
 */
export function versionSlip(url: string, methodsOf: (path: string) => string[]): VersionSlip | undefined {
  const path = url.split('?', 1)[0] ?? url;
  const segments = path.split('/').filter(Boolean);
  if (segments.length === 0) return undefined;
  const doubled = segments.length > 2 && VERSION.test(segments[0]!) && VERSION.test(segments[1]!);
  const candidate = doubled
    ? `/${segments.slice(1).join('/')}`
    : VERSION.test(segments[0]!)
      ? undefined
      : `/v2/${segments.join('/')}`;
  if (candidate === undefined) return undefined;
  const methods = methodsOf(candidate);
  return methods.length > 0 ? { kind: doubled ? 'doubled' : 'missing', path: candidate, methods } : undefined;
}
