import { clearInterval, setImmediate, setInterval } from 'node:timers';
import {
  answerInOperatorWords,
  storedDocumentInOperatorWords,
  type Crawlkit,
  type Document,
  type ErrorResponse,
  type JobStatusResponse,
  type Logger,
} from 'crawlkit';
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
/** Characters of documents a catch-up reads and sends at once: each step holds the loop a few milliseconds. */
const CATCHUP_CHARS = 1024 ** 2;

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

/** Finds the job and its status: the path's kind first, then the other (the SDKs watch batches at either path). */
async function findJob(
  ck: Crawlkit,
  preferred: Kind,
  id: string,
  reader: Reader,
): Promise<{ kind: Kind; status: JobStatusResponse } | ErrorResponse> {
  let answer: ErrorResponse | undefined;
  for (const kind of preferred === 'crawl' ? (['crawl', 'batch'] as const) : (['batch', 'crawl'] as const)) {
    const found = await status(ck, kind, id, 0, 1, reader);
    if (found.success) return { kind, status: found };
    answer = found;
    if (found.code !== 'JOB_NOT_FOUND') break;
  }
  return answer!;
}

/** Sends one fragment of a message, resolving once it is handed to the network (the socket's backpressure). */
function sendFragment(socket: WebSocket, text: string, fin: boolean): Promise<void> {
  return new Promise((resolve, reject) => {
    if (socket.readyState !== socket.OPEN) return reject(new Error('The WebSocket closed.'));
    socket.send(text, { fin }, (error) => (error ? reject(error) : resolve()));
  });
}

/**
 * Sends the `catchup` of reference §13.10, the job's status with every document stored so far, as one message written
 * in fragments: the documents' JSON as stored (parsed only where it names an engine option, whose warning is told in
 * server words), ~1 MiB at a time, each piece handed to the network before the next is read. A session holds one
 * piece, never the whole job (before: every catch-up built the whole job, parsed, in memory; 8 of a 400 MB job took the
 * server to 5.6 GB and held its loop for 55 s). Resolves with the number of documents sent.
 */
async function sendCatchup(
  ck: Crawlkit,
  socket: WebSocket,
  found: { kind: Kind; status: JobStatusResponse },
  id: string,
  reader: Reader,
): Promise<number> {
  const { data: _first, next: _next, ...fields } = found.status;
  const head = JSON.stringify({ type: 'catchup', data: answerInOperatorWords(fields, 'serve') });
  // `{"type":"catchup","data":{...fields}}` opened before its last two braces to add the documents.
  let text = `${head.slice(0, -2)}${Object.keys(fields).length ? ',' : ''}"data":[`;
  let sent = 0;
  while (!reader.signal.aborted) {
    const page = await ck.readJobDocuments(id, { skip: sent, maxChars: CATCHUP_CHARS }, reader);
    if (!page.success) throw new Error(page.error);
    if (page.documents.length === 0) break;
    const documents = page.documents.map((json) => storedDocumentInOperatorWords(json, 'serve'));
    text += `${sent > 0 ? ',' : ''}${documents.join(',')}`;
    sent += page.documents.length;
    await sendFragment(socket, text, false);
    text = '';
    // A write the kernel took at once calls back before any other I/O: let other requests in between pieces.
    await new Promise((resolve) => setImmediate(resolve));
  }
  await sendFragment(socket, `${text}]}}`, true);
  return sent;
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

/** Sends `message`, the engine options its error or documents name told as the server's (as `respond`'s `send`). */
function send(socket: WebSocket, message: Message): void {
  const told = message.type === 'done' ? message : answerInOperatorWords(message, 'serve');
  if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(told));
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
  let skip = await sendCatchup(ck, socket, found, id, reader);
  if (signal.aborted) return;
  if (found.status.status !== 'scraping') return end(socket, CLOSE.done, { type: 'done' });

  // `watch` yields every document from the first: skip those the catch-up carried.
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
