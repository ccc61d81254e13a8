import type {
  BatchScrapeRequestInput,
  CallOptions,
  Crawlkit,
  CrawlParamsPreviewInput,
  CrawlRequestInput,
  MapRequestInput,
  ScrapeRequestInput,
} from 'crawlkit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';

import type { Admission } from './admission.js';
import { sendPaged } from './paged-json.js';
import { registerParseRoute } from './parse-route.js';
import { send, v2Error } from './respond.js';
import { registerMonitorRoutes } from './monitor-routes.js';
import { registerScheduleRoutes } from './schedule-routes.js';
import { registerSearchRoute } from './search-route.js';
import type { VersionSlip } from './version-slip.js';

/** What the route handlers need beside the engine. */
export interface RouteContext {
  crawlkit: Crawlkit;
  admission: Admission;
  /**
   * The call options of a request: its base address, its tenant (the API key's, unless keys share their jobs) and
   * a signal aborted when the client goes away.
   */
  call(request: FastifyRequest, reply: FastifyReply): CallOptions;
  /** The WebSocket handler of a job status path (reference §13.10). */
  socket(kind: JobKind): (socket: WebSocket, request: IdRequest) => void;
  /** Largest file `POST /v2/parse` takes, in bytes. */
  parseFileLimit: number;
}

export type JobKind = 'crawl' | 'batch';
export type IdParams = { Params: { id: string } };
type IdRequest = FastifyRequest<IdParams>;
export type StatusQuery = { Params: { id: string }; Querystring: Record<string, string | string[] | undefined> };

const PREFIX: Record<JobKind, string> = { crawl: '/v2/crawl', batch: '/v2/batch/scrape' };

/** A query value as a number for the engine's validation (which names it when it is not a valid one). */
function numberParam(value: string | string[] | undefined): number | undefined {
  const raw = Array.isArray(value) ? value[0] : value;
  return raw === undefined ? undefined : Number(raw);
}

/** `skip` and `limit` of a status request, as given. */
export function paginationOf(query: StatusQuery['Querystring']): { skip?: number; limit?: number } {
  const pagination = { skip: numberParam(query.skip), limit: numberParam(query.limit) };
  return Object.fromEntries(Object.entries(pagination).filter(([, v]) => v !== undefined));
}

/** The call option of a request's `x-idempotency-key` header: none without one. */
export function idempotencyOf(request: FastifyRequest): { idempotencyKey?: string } {
  const value = request.headers['x-idempotency-key'];
  const key = Array.isArray(value) ? value[0] : value;
  return key !== undefined ? { idempotencyKey: key } : {};
}

/** The engine's methods of one job kind. */
function methodsOf(ck: Crawlkit, kind: JobKind) {
  return kind === 'crawl'
    ? { status: ck.getCrawlStatus.bind(ck), cancel: ck.cancelCrawl.bind(ck), errors: ck.getCrawlErrors.bind(ck) }
    : {
        status: ck.getBatchScrapeStatus.bind(ck),
        cancel: ck.cancelBatchScrape.bind(ck),
        errors: ck.getBatchScrapeErrors.bind(ck),
      };
}

/**
 * The job methods of a path's kind, answering for a job of the other kind too: upstream serves crawl and batch
 * status, cancel and errors with one handler, and its v1 SDK polls a batch at `/v1/crawl/:id`.
 */
export function jobMethods(ck: Crawlkit, kind: JobKind) {
  const own = methodsOf(ck, kind);
  const other = methodsOf(ck, kind === 'crawl' ? 'batch' : 'crawl');
  const either =
    <A extends unknown[], R extends object>(first: (...args: A) => Promise<R>, second: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      const answer = await first(...args);
      const missing = (answer as { code?: string }).code === 'JOB_NOT_FOUND';
      return missing ? second(...args) : answer;
    };
  return {
    status: either(own.status, other.status),
    cancel: either(own.cancel, other.cancel),
    errors: either(own.errors, other.errors),
  };
}

/** Every v2 route crawlkit implements, at upstream's paths and methods (reference §2). */
export function registerRoutes(app: FastifyInstance, ctx: RouteContext): void {
  const { crawlkit: ck, admission } = ctx;

  app.post<{ Body: ScrapeRequestInput }>('/v2/scrape', async (request, reply) => {
    if (asksAlexandria(request.body)) return send(reply, alexandriaNotOffered());
    const call = { ...ctx.call(request, reply), keepResult: true };
    return send(reply, await admission.queued(() => ck.scrape(request.body, call), call.tenant));
  });

  registerSearchRoute(app, ctx);
  app.get<IdParams>('/v2/scrape/:id', async (request, reply) => {
    return send(reply, await ck.getScrape(request.params.id, ctx.call(request, reply)));
  });

  registerParseRoute(app, ctx);

  app.post<{ Body: MapRequestInput }>('/v2/map', async (request, reply) => {
    const call = ctx.call(request, reply);
    return send(reply, await admission.queued(() => ck.map(request.body, call), call.tenant));
  });

  app.post<{ Body: CrawlRequestInput }>('/v2/crawl', async (request, reply) => {
    const call = { ...ctx.call(request, reply), ...idempotencyOf(request) };
    return send(reply, await admission.withRoom(() => ck.crawl(request.body, call)));
  });

  app.post<{ Body: CrawlParamsPreviewInput }>('/v2/crawl/params-preview', async (request, reply) => {
    const call = ctx.call(request, reply);
    return send(reply, await admission.queued(() => ck.crawlParamsPreview(request.body, call), call.tenant));
  });

  // Static paths win over `/v2/crawl/:id` in the router, whatever the order (reference §2's route order).
  for (const path of ['/v2/crawl/active', '/v2/crawl/ongoing']) {
    app.get(path, async (request, reply) => send(reply, await ck.getActiveCrawls(ctx.call(request, reply))));
  }

  app.post<{ Body: BatchScrapeRequestInput }>('/v2/batch/scrape', async (request, reply) => {
    const call = { ...ctx.call(request, reply), ...idempotencyOf(request) };
    return send(reply, await admission.withRoom(() => ck.batchScrape(request.body, call)));
  });

  for (const kind of ['crawl', 'batch'] as const) {
    const prefix = PREFIX[kind];
    const jobs = jobMethods(ck, kind);
    // One path, two protocols: the status over HTTP, live updates over a WebSocket upgrade.
    app.route<StatusQuery>({
      method: 'GET',
      url: `${prefix}/:id`,
      handler: async (request, reply) => {
        const call = ctx.call(request, reply);
        const answer = await jobs.status(request.params.id, paginationOf(request.query), call);
        // A page may hold ~10 MB of documents: written in pieces, never in one block (issue 38).
        return answer.success ? sendPaged(reply, answer) : send(reply, answer);
      },
      wsHandler: ctx.socket(kind),
    });
    app.delete<IdParams>(`${prefix}/:id`, async (request, reply) => {
      return send(reply, await jobs.cancel(request.params.id, ctx.call(request, reply)));
    });
    app.get<IdParams>(`${prefix}/:id/errors`, async (request, reply) => {
      return send(reply, await jobs.errors(request.params.id, ctx.call(request, reply)));
    });
  }

  // crawlkit's own: a crawl's change feed against its lineage's previous run (issue 41).
  app.get<StatusQuery>('/v2/crawl/:id/changes', async (request, reply) => {
    const call = ctx.call(request, reply);
    return send(reply, await ck.getCrawlChanges(request.params.id, paginationOf(request.query), call));
  });
  registerScheduleRoutes(app, ctx);
  registerMonitorRoutes(app, ctx);
}

/** A scrape body that runs Alexandria tools (the SDK's `findTools`) instead of scraping a URL. */
function asksAlexandria(body: unknown): boolean {
  return typeof body === 'object' && body !== null && 'alexandria' in body;
}

function alexandriaNotOffered() {
  return v2Error(
    'ENDPOINT_NOT_SUPPORTED',
    `POST /v2/scrape with \`alexandria\` (Alexandria tool execution, the SDK's findTools) is a Firecrawl endpoint that crawlkit does not offer; ${OFFERED}.`,
  );
}

/** v2 endpoints of the hosted service that crawlkit does not offer, by their first path segment under `/v2`. */
const NOT_OFFERED: Record<string, string> = {
  extract: 'extract',
  agent: 'agent',
  'deep-research': 'deep research',
  research: 'research',
  llmstxt: 'llms.txt generation',
  'generate-llmstxt': 'llms.txt generation',
  browser: 'browser sessions',
  monitors: 'monitors (crawlkit answers /v2/monitor)',
  tools: 'tools',
  developer: 'developer search',
  feedback: 'feedback',
  support: 'support',
  x402: 'x402 payments',
};

/** What crawlkit does instead of an endpoint it does not offer, by the endpoint's name (`NOT_OFFERED`). */
const INSTEAD: Record<string, string> = {
  extract:
    'for JSON from several pages, scrape them with the json format: POST /v2/batch/scrape (or /v2/crawl) with ' +
    '`formats: [{ type: "json", prompt, schema }]` (`scrapeOptions.formats` for a crawl), each page its own `json`',
};

/** Team endpoints crawlkit answers (with `/historical` for the usage ones). */
const TEAM_OFFERED = new Set(['credit-usage', 'token-usage', 'queue-status']);

const OFFERED =
  'crawlkit serves scrape, parse, crawl, batch scrape, map, search, monitors, team credit and token usage, queue ' +
  'status and concurrency check ' +
  '(v2, and v1 scrape, crawl, batch scrape, map and search)';

/** The name of a Firecrawl endpoint crawlkit does not offer, from its path segments (`v1`/`v2` first). */
function notOfferedName(segments: string[]): string | undefined {
  const [version, first = '', second] = segments;
  if (first === 'search' && second === 'developer') return 'developer search';
  if (first === 'search' && second === 'research') return 'research paper search';
  if (first === 'search' && segments[3] === 'feedback') return 'search feedback';
  // POST /v2/search and /v1/search are served (search-route.ts, v1-routes.ts); other search paths are not.
  if (first === 'search' && segments.length > 2) return 'search sub-endpoints';
  const named = NOT_OFFERED[first];
  if (named) return named;
  if (first === 'team') {
    const historical = segments.length === 4 && segments[3] === 'historical';
    if (!TEAM_OFFERED.has(second ?? '') || (segments.length > 3 && !historical)) {
      return `team ${segments.slice(2).join(' ')}`.trim();
    }
  }
  if (first === 'scrape' && segments.length > 3) return 'scrape interaction: interact, execute, browser';
  if (version === 'v0') return 'the v0 API';
  return undefined;
}

/** What a client whose base URL slipped on the version is told: the route meant, and which base URL to give. */
function slipAdvice(method: string, path: string, slip: VersionSlip): string {
  const meant = slip.methods.includes(method)
    ? `this is ${method} ${slip.path}`
    : `the route is ${slip.path}, which takes ${slip.methods.join(' or ')}`;
  return slip.kind === 'missing'
    ? `No route for ${method} ${path}: crawlkit answers the Firecrawl v2 API under /v2, so ${meant}. A client ` +
        "that takes the whole base URL (n8n's Firecrawl credential, a plain HTTP client) is given the server's " +
        'address followed by /v2; the SDKs, firecrawl-cli and firecrawl-mcp add /v2 themselves.'
    : `No route for ${method} ${path}: the API version is in the path twice, so ${meant}. The client adds the ` +
        "version itself (firecrawl-js, firecrawl-py, firecrawl-cli, firecrawl-mcp): give it the server's address " +
        'without /v2.';
}

/**
 * The 404 answer of a path: a named Firecrawl endpoint crawlkit does not offer, a path whose routes take other
 * methods (`allowed`, named so the client knows what to send), a path whose version slipped (`slip`: missing or
 * doubled, so the client's base URL is wrong), or no route at all.
 */
export function notFound(method: string, url: string, allowed: readonly string[] = [], slip?: VersionSlip): object {
  const path = url.split('?')[0] ?? url;
  const segments = path.split('/').filter(Boolean);
  if (segments[0] === 'v2' || segments[0] === 'v1' || segments[0] === 'v0') {
    const name = notOfferedName(segments);
    if (name) {
      return v2Error(
        'ENDPOINT_NOT_SUPPORTED',
        `${method} ${path} (${name}) is a Firecrawl endpoint that crawlkit does not offer; ` +
          `${INSTEAD[name] ? `${INSTEAD[name]}. ` : ''}${OFFERED}.`,
      );
    }
  }
  if (allowed.length > 0) {
    return v2Error(
      'ROUTE_NOT_FOUND',
      `No route for ${method} ${path}: ${path} takes ${allowed.join(' or ')}; send the request with ` +
        `${allowed.length > 1 ? 'one of them' : allowed[0]}.`,
    );
  }
  if (slip) return v2Error('ROUTE_NOT_FOUND', slipAdvice(method, path, slip));
  return v2Error('ROUTE_NOT_FOUND', `No route for ${method} ${path}; ${OFFERED}.`);
}
