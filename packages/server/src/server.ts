import { clearTimeout, setTimeout } from 'node:timers';
import type { AddressInfo } from 'node:net';

import { toErrorResponse, type CallOptions } from 'crawlkit';
import websocket from '@fastify/websocket';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';

import { registerAccessLog } from './access-log.js';
import { Admission } from './admission.js';
import { ApiKeys } from './auth.js';
import { describeBodyError, registerBodyParsing } from './body.js';
import { registerCors } from './cors.js';
import { registerHostCheck } from './host-check.js';
import { clientErrorHandler, frameworkErrorAnswer, headerTimeouts, MAX_PARAM_LENGTH } from './framework-errors.js';
import { HEALTH_PATHS, registerHealthRoutes } from './health-routes.js';
import { addressing } from './public-url.js';
import { resolveServerOptions, type ResolvedServerOptions, type ServerOptions } from './options.js';
import { closeAfter, send, v2Error } from './respond.js';
import { lazySchemaCompilers } from './schema-compilers.js';
import { notFound, registerRoutes, type JobKind } from './routes.js';
import { RouteMethods, type RouteMatching } from './route-methods.js';
import { versionSlip } from './version-slip.js';
import { registerTeamRoutes } from './routes-team.js';
import { jobSocketHandler } from './socket.js';
import { registerV1Routes } from './v1-routes.js';

/** How the router matches paths. As upstream's Express: `/v2/scrape/` and `//v2/scrape` are `/v2/scrape`. */
const ROUTE_MATCHING: RouteMatching = {
  maxParamLength: MAX_PARAM_LENGTH,
  ignoreTrailingSlash: true,
  ignoreDuplicateSlashes: true,
};

/** A running v2 HTTP server over a `Crawlkit` engine. */
export interface CrawlkitServer {
  /** The address clients use, e.g. `http://127.0.0.1:3002` (the real port when `port` was 0). */
  readonly url: string;
  readonly port: number;
  /** The Fastify instance (hooks, extra routes, `inject` in tests). */
  readonly app: FastifyInstance;
  /**
   * Stops accepting connections, lets requests in progress finish (aborting those still running after
   * `closeTimeoutMs`), closes WebSockets and frees the port. Idempotent. The engine stays open: close it after.
   */
  close(): Promise<void>;
}

interface App {
  app: FastifyInstance;
  /** Aborts the work of requests in progress. */
  inFlight: Set<AbortController>;
  /** Aborted when the server starts closing. */
  closing: AbortController;
}

async function buildApp(options: ResolvedServerOptions): Promise<App> {
  const { crawlkit, logger } = options;
  const keys = new ApiKeys(options.apiKeys, { share: options.keysShareJobs, source: options.apiKeysSource });
  /** The tenant of each authenticated request (its API key's). */
  const tenants = new WeakMap<FastifyRequest, string>();
  const inFlight = new Set<AbortController>();
  const closing = new AbortController();
  const address = addressing(options.publicUrl);
  const timeouts = headerTimeouts(options.bodyTimeoutMs);
  const app = Fastify({
    http: timeouts,
    bodyLimit: options.bodyLimit,
    trustProxy: options.trustProxy,
    ...(address.rewriteUrl ? { rewriteUrl: address.rewriteUrl } : {}),
    logger: false,
    return503OnClosing: true,
    routerOptions: ROUTE_MATCHING,
    frameworkErrors: frameworkErrorAnswer,
    clientErrorHandler: clientErrorHandler(timeouts.headersTimeout, logger),
    schemaController: { compilersFactory: lazySchemaCompilers },
  });
  const routeMethods = new RouteMethods(app, ROUTE_MATCHING);
  // Clients send nothing on the job socket: a small frame limit.
  await app.register(websocket, { options: { maxPayload: 64 * 1024 } });

  // A keep-alive connection answered while the server closes would hold `close()` until the client drops it.
  app.addHook('onSend', async (_request, reply) => {
    if (closing.signal.aborted) reply.header('connection', 'close');
  });

  registerAccessLog(app, logger, (request) => tenants.get(request));
  registerBodyParsing(app, options.bodyTimeoutMs);
  // CORS before auth: browsers send preflights without a key.
  registerCors(app, options.cors);
  // Keyless (loopback only): a web page rebinding its name to 127.0.0.1 is refused by its Host.
  if (options.apiKeys.length === 0) registerHostCheck(app, options.publicUrl);

  app.addHook('onRequest', async (request, reply) => {
    // A WebSocket is accepted first, then refused with close code 3000 as upstream does (reference §13.10).
    if (request.ws || HEALTH_PATHS.has(request.routeOptions.url ?? '')) return;
    const auth = keys.checkAuthorization(request.headers.authorization);
    if (!auth.ok) {
      // Answered and closed at once: its body is never read, so a client trickling one holds no socket.
      closeAfter(reply);
      return send(reply, v2Error('UNAUTHORIZED', auth.error));
    }
    if (auth.tenant !== undefined) tenants.set(request, auth.tenant);
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const body = describeBodyError(error, options.bodyLimit, request.headers['content-type']);
    if (body) {
      if (error.statusCode === 408) closeAfter(reply);
      return send(reply, body);
    }
    if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
      return send(reply, v2Error('BAD_REQUEST', `Bad Request: ${error.message}`));
    }
    // Without the query (the access line's rule): the path is enough to find the route.
    logger.error(`${request.method} ${request.url.split('?', 1)[0]} failed: ${error.message}`);
    return send(reply, toErrorResponse(error));
  });

  app.setNotFoundHandler((request, reply) => {
    const allowed = routeMethods.of(request.url);
    if (allowed.length > 0) reply.header('allow', allowed.join(', '));
    const slip = allowed.length > 0 ? undefined : versionSlip(request.url, (path) => routeMethods.of(path));
    return send(reply, notFound(request.method, request.url, allowed, slip));
  });

  const call = (request: FastifyRequest, reply: FastifyReply): CallOptions => {
    const controller = new AbortController();
    inFlight.add(controller);
    reply.raw.once('close', () => {
      inFlight.delete(controller);
      // The client went away before the answer: stop its work.
      if (!reply.raw.writableFinished) controller.abort();
    });
    const tenant = tenants.get(request);
    return {
      signal: controller.signal,
      baseUrl: address.base(request),
      ...(tenant !== undefined ? { tenant } : {}),
      // The engine reserves each call's credits under the limit before its work starts (Admission).
      ...(options.creditLimit !== undefined ? { creditLimit: options.creditLimit } : {}),
    };
  };

  const socketContext = { crawlkit, keys, logger, closing: closing.signal };
  const admission = new Admission(crawlkit, options.queueLimit, options.creditLimit, options.readyMinFreeMb);
  const routes = {
    crawlkit,
    admission,
    call,
    socket: (kind: JobKind) => jobSocketHandler(socketContext, kind),
    parseFileLimit: options.parseFileLimit,
  };
  registerRoutes(app, routes);
  registerV1Routes(app, routes);
  registerTeamRoutes(app, crawlkit, admission, (request) => tenants.get(request));
  registerHealthRoutes(app, crawlkit, options.readyMinFreeMb, logger);
  return { app, inFlight, closing };
}

/**
 * Starts the v2 HTTP server: the routes crawlkit implements at upstream's paths, auth with API keys, the status of
 * each error code from `ERROR_CODES`. Throws `INVALID_OPTION` (`InvalidOptionError` of `@crawlkit/options`) for an
 * option it cannot use (a non-loopback host without keys, a bad port) and rejects when the port cannot be bound.
 */
export async function startServer(serverOptions: ServerOptions): Promise<CrawlkitServer> {
  const options = resolveServerOptions(serverOptions);
  const { app, inFlight, closing } = await buildApp(options);
  await app.listen({ port: options.port, host: options.host });
  const address = app.server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}`;
  // debug: the caller has the address (`url`) and says it its own way (`crawlkit serve`'s start line).
  options.logger.debug(`v2 API on ${url}${options.apiKeys.length ? '' : ' (keyless)'}`);

  let closed: Promise<void> | undefined;
  const close = async (): Promise<void> => {
    closing.abort();
    const stopped = app.close();
    const timer = setTimeout(() => {
      for (const controller of inFlight) controller.abort();
    }, options.closeTimeoutMs);
    try {
      await stopped;
    } finally {
      clearTimeout(timer);
    }
  };
  return {
    url,
    port: address.port,
    app,
    close: () => (closed ??= close()),
  };
}
