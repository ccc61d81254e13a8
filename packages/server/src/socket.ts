import type { Crawlkit, Document, ErrorResponse, JobStatusResponse, Logger } from 'crawlkit';
import type { FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';

import type { ApiKeys } from './auth.js';
import type { JobKind as Kind } from './routes.js';

/** Close codes of the v2 job WebSocket (reference §13.10). */
export const CLOSE = { done: 1000, goingAway: 1001, notFound: 1008, internal: 1011, auth: 3000 } as const;

/** A message of the v2 job WebSocket. */
type Message =
  | { type: 'catchup'; data: JobStatusResponse }
  | { type: 'document'; data: Document }
  | { type: 'done' }
  | { type: 'error'; error: string };

export interface SocketContext {
  crawlkit: Crawlkit;
  keys: ApiKeys;
  logger: Logger;
  /** Aborted when the server closes. */
  closing: AbortSignal;
}

/** Pings keep idle sessions (a crawl between pages) open through proxies that drop silent connections. */
const PING_MS = 30_000;
/** Page size used to collect the documents of a catch-up. */
const CATCHUP_PAGE = 1000;

/** Who a session reads for: its signal, and its key's tenant. */
interface Reader {
  signal: AbortSignal;
  tenant?: string;
}

function status(ck: Crawlkit, kind: Kind, id: string, skip: number, limit: number, reader: Reader) {
  return kind === 'crawl'
    ? ck.getCrawlStatus(id, { skip, limit }, reader)
    : ck.getBatchScrapeStatus(id, { skip, limit }, reader);
}

/** The job's status with every document stored so far (the `catchup` of reference §13.10), without `next`. */
async function fullStatus(
  ck: Crawlkit,
  kind: Kind,
  id: string,
  reader: Reader,
): Promise<JobStatusResponse | ErrorResponse> {
  const first = await status(ck, kind, id, 0, CATCHUP_PAGE, reader);
  if (!first.success) return first;
  let next = first.next;
  while (next) {
    const page = await status(ck, kind, id, first.data.length, CATCHUP_PAGE, reader);
    if (!page.success || page.data.length === 0) break;
    first.data.push(...page.data);
    next = page.next;
  }
  delete first.next;
  return first;
}

/** Finds the job: the path's kind first, then the other (the SDKs watch batches at either path). */
async function findJob(
  ck: Crawlkit,
  preferred: Kind,
  id: string,
  reader: Reader,
): Promise<{ kind: Kind; status: JobStatusResponse } | ErrorResponse> {
  let answer: ErrorResponse | undefined;
  for (const kind of preferred === 'crawl' ? (['crawl', 'batch'] as const) : (['batch', 'crawl'] as const)) {
    const found = await fullStatus(ck, kind, id, reader);
    if (found.success) return { kind, status: found };
    answer = found;
    if (found.code !== 'JOB_NOT_FOUND') break;
  }
  return answer!;
}

/**
 * The v2 job WebSocket at `/v2/crawl/:id` and `/v2/batch/scrape/:id` (reference §13.10): a `catchup` with the status
 * and every document so far, a `document` per page as it is stored, then `done` and close 1000. A job that ends
 * cancelled or failed gets a last `catchup` with that status before `done`. Auth as upstream: the key as the
 * subprotocol or in `Authorization`, else `error` and close 3000; an unknown or malformed id closes 1008.
 */
export function jobSocketHandler(ctx: SocketContext, preferred: Kind) {
  return (socket: WebSocket, request: FastifyRequest<{ Params: { id: string } }>): void => {
    const controller = new AbortController();
    const stop = () => controller.abort();
    // The server is closing: the session ends here, and the client hears why (it may reconnect to another server).
    const shutDown = () => {
      stop();
      if (socket.readyState === socket.OPEN) socket.close(CLOSE.goingAway, 'Server shutting down');
    };
    socket.once('close', stop);
    if (ctx.closing.aborted) return shutDown();
    ctx.closing.addEventListener('abort', shutDown, { once: true });
    const ping = setInterval(() => socket.ping(), PING_MS);
    ping.unref();
    const { id } = request.params;
    ctx.logger.debug(`websocket ${request.url} opened`);
    session(ctx, socket, request, preferred, controller.signal)
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        const message = error instanceof Error ? error.message : String(error);
        ctx.logger.error(`websocket ${request.url}: ${message}`);
        end(socket, CLOSE.internal, { type: 'error', error: message });
      })
      .finally(() => {
        clearInterval(ping);
        ctx.closing.removeEventListener('abort', shutDown);
        ctx.logger.debug(`websocket for ${id} closed`);
      });
  };
}

function send(socket: WebSocket, message: Message): void {
  if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
}

/** Sends the last message and closes with `code`. */
function end(socket: WebSocket, code: number, message: Message): void {
  send(socket, message);
  if (socket.readyState === socket.OPEN) socket.close(code);
}

async function session(
  ctx: SocketContext,
  socket: WebSocket,
  request: FastifyRequest<{ Params: { id: string } }>,
  preferred: Kind,
  signal: AbortSignal,
): Promise<void> {
  const { crawlkit: ck } = ctx;
  const auth = ctx.keys.checkSocket(request.headers['sec-websocket-protocol'], request.headers.authorization);
  if (!auth.ok) return end(socket, CLOSE.auth, { type: 'error', error: auth.error });

  const id = request.params.id;
  const reader: Reader = { signal, ...(auth.tenant !== undefined ? { tenant: auth.tenant } : {}) };
  const found = await findJob(ck, preferred, id, reader);
  if (signal.aborted) return;
  if ('success' in found) {
    const code = found.code === 'JOB_NOT_FOUND' || found.code === 'BAD_REQUEST' ? CLOSE.notFound : CLOSE.internal;
    return end(socket, code, { type: 'error', error: found.error });
  }
  send(socket, { type: 'catchup', data: found.status });
  if (found.status.status !== 'scraping') return end(socket, CLOSE.done, { type: 'done' });

  // `watch` yields every document from the first: skip those the catch-up carried.
  let skip = found.status.data.length;
  for await (const document of ck.watch(id, reader)) {
    if (skip > 0) {
      skip--;
      continue;
    }
    send(socket, { type: 'document', data: document });
  }
  if (signal.aborted) return;
  const last = await status(ck, found.kind, id, 0, 1, reader);
  if (!last.success) return end(socket, CLOSE.internal, { type: 'error', error: last.error });
  if (last.status !== 'completed') {
    const { next: _next, ...final } = last;
    send(socket, { type: 'catchup', data: { ...final, data: [] } });
  }
  end(socket, CLOSE.done, { type: 'done' });
}
