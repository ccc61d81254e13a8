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
import { send, v2Error } from './respond.js';
import { registerSearchRoute } from './search-route.js';

/** What the route handlers need beside the engine. */
export interface RouteContext {
  crawlkit: Crawlkit;
  admission: Admission;
  /** The call options of a request: its base address and a signal aborted when the client goes away. */
  call(request: FastifyRequest, reply: FastifyReply): CallOptions;
  /** The WebSocket handler of a job status path (reference §13.10). */
  socket(kind: JobKind): (socket: WebSocket, request: IdRequest) => void;
}

export type JobKind = 'crawl' | 'batch';
type IdParams = { Params: { id: string } };
type IdRequest = FastifyRequest<IdParams>;
type StatusQuery = { Params: { id: string }; Querystring: Record<string, string | string[] | undefined> };

const PREFIX: Record<JobKind, string> = { crawl: '/v2/crawl', batch: '/v2/batch/scrape' };

/** A query value as a number for the engine's validation (which names it when it is not a valid one). */
function numberParam(value: string | string[] | undefined): number | undefined {
  const raw = Array.isArray(value) ? value[0] : value;
  return raw === undefined ? undefined : Number(raw);
}

function idempotencyKey(request: FastifyRequest): string | undefined {
  const value = request.headers['x-idempotency-key'];
  return Array.isArray(value) ? value[0] : value;
}

/** Every v2 route crawlkit implements, at upstream's paths and methods (reference §2). */
export function registerRoutes(app: FastifyInstance, ctx: RouteContext): void {
  const { crawlkit: ck, admission } = ctx;

  app.post<{ Body: ScrapeRequestInput }>('/v2/scrape', async (request, reply) => {
    const refused = admission.refuseWithoutCredits();
    if (refused) return send(reply, refused);
    const call = ctx.call(request, reply);
    return send(reply, await admission.queued(() => ck.scrape(request.body, call)));
  });

  registerSearchRoute(app, ctx);

  app.post<{ Body: MapRequestInput }>('/v2/map', async (request, reply) => {
    const refused = admission.refuseWithoutCredits();
    if (refused) return send(reply, refused);
    const call = ctx.call(request, reply);
    return send(reply, await admission.queued(() => ck.map(request.body, call)));
  });

  app.post<{ Body: CrawlRequestInput }>('/v2/crawl', async (request, reply) => {
    const refused = admission.refuseWithoutCredits();
    if (refused) return send(reply, refused);
    const body = withCreditCap(request.body, admission.remainingCredits());
    const key = idempotencyKey(request);
    return send(
      reply,
      await ck.crawl(body, { ...ctx.call(request, reply), ...(key !== undefined ? { idempotencyKey: key } : {}) }),
    );
  });

  app.post<{ Body: CrawlParamsPreviewInput }>('/v2/crawl/params-preview', async (request, reply) => {
    const call = ctx.call(request, reply);
    return send(reply, await admission.queued(() => ck.crawlParamsPreview(request.body, call)));
  });

  // Static paths win over `/v2/crawl/:id` in the router, whatever the order (reference §2's route order).
  for (const path of ['/v2/crawl/active', '/v2/crawl/ongoing']) {
    app.get(path, async (request, reply) => send(reply, await ck.getActiveCrawls(ctx.call(request, reply))));
  }

  app.post<{ Body: BatchScrapeRequestInput }>('/v2/batch/scrape', async (request, reply) => {
    const refused = admission.refuseWithoutCredits();
    if (refused) return send(reply, refused);
    const key = idempotencyKey(request);
    return send(
      reply,
      await ck.batchScrape(request.body, {
        ...ctx.call(request, reply),
        ...(key !== undefined ? { idempotencyKey: key } : {}),
      }),
    );
  });

  for (const kind of ['crawl', 'batch'] as const) {
    const prefix = PREFIX[kind];
    const jobs =
      kind === 'crawl'
        ? {
            status: ck.getCrawlStatus.bind(ck),
            cancel: ck.cancelCrawl.bind(ck),
            errors: ck.getCrawlErrors.bind(ck),
          }
        : {
            status: ck.getBatchScrapeStatus.bind(ck),
            cancel: ck.cancelBatchScrape.bind(ck),
            errors: ck.getBatchScrapeErrors.bind(ck),
          };
    // One path, two protocols: the status over HTTP, live updates over a WebSocket upgrade.
    app.route<StatusQuery>({
      method: 'GET',
      url: `${prefix}/:id`,
      handler: async (request, reply) => {
        const pagination = { skip: numberParam(request.query.skip), limit: numberParam(request.query.limit) };
        const defined = Object.fromEntries(Object.entries(pagination).filter(([, v]) => v !== undefined));
        const call = ctx.call(request, reply);
        return send(reply, await jobs.status(request.params.id, defined, call));
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

  app.get('/v2/team/credit-usage', async (_request, reply) => {
    const usage = ck.getCreditUsage();
    const remaining = admission.remainingCredits();
    if (remaining === undefined) return send(reply, usage);
    const planCredits = remaining + usage.data.creditsUsed;
    return send(reply, { ...usage, data: { ...usage.data, remainingCredits: remaining, planCredits } });
  });
}

/** Upstream lowers a crawl's `limit` to the credits left instead of refusing it (reference §17, 402). */
function withCreditCap(body: CrawlRequestInput, remaining: number | undefined): CrawlRequestInput {
  if (remaining === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  const limit = typeof body.limit === 'number' ? body.limit : Number.POSITIVE_INFINITY;
  return limit > remaining ? { ...body, limit: remaining } : body;
}

/** v2 endpoints of the hosted service that crawlkit does not offer, by their first path segment under `/v2`. */
const NOT_OFFERED: Record<string, string> = {
  // POST /v2/search is served (search-route.ts); its sub-endpoints are not.
  search: 'search sub-endpoints: developer, research and feedback',
  extract: 'extract',
  agent: 'agent',
  'deep-research': 'deep research',
  research: 'research',
  llmstxt: 'llms.txt generation',
  'generate-llmstxt': 'llms.txt generation',
  parse: 'file parsing',
  browser: 'browser sessions',
  monitor: 'monitors',
  monitors: 'monitors',
  tools: 'tools',
  developer: 'developer search',
  feedback: 'feedback',
  'concurrency-check': 'concurrency check',
};

/** The 404 answer of a path: a named v2 endpoint crawlkit does not offer, or no route at all. */
export function notFound(method: string, url: string): object {
  const path = url.split('?')[0] ?? url;
  const segments = path.split('/').filter(Boolean);
  const offered = 'crawlkit serves scrape, crawl, batch scrape, map, search and team credit usage';
  if (segments[0] === 'v2' || segments[0] === 'v1') {
    const [, first = '', second] = segments;
    const name =
      NOT_OFFERED[first] ??
      (first === 'team' && (second !== 'credit-usage' || segments.length > 3)
        ? `team ${segments.slice(2).join(' ')}`.trim()
        : undefined) ??
      (first === 'scrape' && segments.length > 2 ? 'stored scrape results and interaction' : undefined) ??
      (segments[0] === 'v1' ? 'the v1 API' : undefined);
    if (name) {
      return v2Error(
        'ENDPOINT_NOT_SUPPORTED',
        `${method} ${path} (${name}) is a Firecrawl endpoint that crawlkit does not offer; ${offered}.`,
      );
    }
  }
  return v2Error('ROUTE_NOT_FOUND', `No route for ${method} ${path}; ${offered}, under /v2.`);
}
