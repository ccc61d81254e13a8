import type {
  BatchScrapeRequestInput,
  CrawlRequestInput,
  Document,
  JobStatusResponse,
  MapRequestInput,
  ScrapeRequestInput,
  SearchRequestInput,
} from 'crawlkit';
import type { FastifyInstance } from 'fastify';

import { send, v2Error } from './respond.js';
import {
  idempotencyOf,
  jobMethods,
  paginationOf,
  type IdParams,
  type RouteContext,
  type StatusQuery,
} from './routes.js';
import {
  addressToV1,
  batchToV2,
  crawlToV2,
  documentToV1,
  jobDocumentToV1,
  mapToV2,
  scrapeToV2,
  searchToV2,
} from './v1-translate.js';

type Body = Record<string, unknown>;
const bodyOf = (value: unknown): Body =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Body) : {};

/** A v2 answer with its job address moved to the v1 paths. */
function withV1Address<T extends object>(answer: T): T {
  if ('url' in answer && typeof answer.url === 'string') return { ...answer, url: addressToV1(answer.url) };
  return answer;
}

/** A job status in v1's form: v1 addresses in `next`, json answers also as `extract`. */
function statusToV1(status: JobStatusResponse): Body {
  const { next, data, ...rest } = status;
  return { ...rest, ...(next ? { next: addressToV1(next) } : {}), data: data.map((d: Document) => jobDocumentToV1(d)) };
}

/**
 * The v1 routes integrations still call (scrape, crawl and its status, cancel, errors and active list, map, batch
 * scrape, search), each translated to the v2 call and its answer back (`v1-translate.ts`). A body that is not an
 * object goes through unchanged, so the v2 validation answers it.
 */
export function registerV1Routes(app: FastifyInstance, ctx: RouteContext): void {
  const { crawlkit: ck, admission } = ctx;

  app.post('/v1/scrape', async (request, reply) => {
    const raw = request.body;
    const scrape = scrapeToV2(bodyOf(raw));
    const body = (bodyOf(raw) === raw ? scrape.options : raw) as ScrapeRequestInput;
    const call = { ...ctx.call(request, reply), keepResult: true };
    const answer = await admission.queued(() => ck.scrape(body, call), call.tenant);
    if (!answer.success) return send(reply, answer);
    return send(reply, { success: true, data: documentToV1(answer.data, scrape) });
  });

  app.post('/v1/map', async (request, reply) => {
    const body = mapToV2(bodyOf(request.body)) as MapRequestInput;
    const call = ctx.call(request, reply);
    const answer = await admission.queued(() => ck.map(body, call), call.tenant);
    if (!answer.success) return send(reply, answer);
    return send(reply, { success: true, links: answer.links.map((link) => link.url) });
  });

  app.post('/v1/search', async (request, reply) => {
    const raw = request.body;
    const { body, scrape, warnings } = searchToV2(bodyOf(raw));
    const call = ctx.call(request, reply);
    const search = (bodyOf(raw) === raw ? body : raw) as SearchRequestInput;
    const answer = await admission.queued(() => ck.search(search, call), call.tenant);
    if (!answer.success) return send(reply, answer);
    // v1 has one list of results: v2's web results, with each scraped document in v1's form.
    const v1Scrape = { extract: scrape?.extract ?? false, json: scrape?.json ?? false, warnings: [] };
    const data = (answer.data.web ?? []).map((result) => documentToV1(result as Document, v1Scrape));
    const warning = [answer.warning, ...warnings].filter(Boolean).join(' ');
    return send(reply, { success: true, data, ...(warning ? { warning } : {}), creditsUsed: answer.creditsUsed });
  });

  app.post('/v1/crawl', async (request, reply) => {
    const translated = crawlToV2(bodyOf(request.body));
    if ('problem' in translated) return send(reply, v2Error('BAD_REQUEST', translated.problem));
    const { body } = translated;
    const call = { ...ctx.call(request, reply), ...idempotencyOf(request) };
    return send(reply, withV1Address(await admission.withRoom(() => ck.crawl(body as CrawlRequestInput, call))));
  });

  app.post('/v1/batch/scrape', async (request, reply) => {
    const { body } = batchToV2(bodyOf(request.body));
    const call = { ...ctx.call(request, reply), ...idempotencyOf(request) };
    const batch = body as unknown as BatchScrapeRequestInput;
    return send(reply, withV1Address(await admission.withRoom(() => ck.batchScrape(batch, call))));
  });

  for (const path of ['/v1/crawl/active', '/v1/crawl/ongoing']) {
    app.get(path, async (request, reply) => send(reply, await ck.getActiveCrawls(ctx.call(request, reply))));
  }

  for (const [kind, prefix] of [
    ['crawl', '/v1/crawl'],
    ['batch', '/v1/batch/scrape'],
  ] as const) {
    const jobs = jobMethods(ck, kind);
    app.get<StatusQuery>(`${prefix}/:id`, async (request, reply) => {
      const answer = await jobs.status(request.params.id, paginationOf(request.query), ctx.call(request, reply));
      return send(reply, answer.success ? statusToV1(answer) : answer);
    });
    app.delete<IdParams>(`${prefix}/:id`, async (request, reply) =>
      send(reply, await jobs.cancel(request.params.id, ctx.call(request, reply))),
    );
    app.get<IdParams>(`${prefix}/:id/errors`, async (request, reply) =>
      send(reply, await jobs.errors(request.params.id, ctx.call(request, reply))),
    );
  }
}
