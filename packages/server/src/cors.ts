import { isIP } from 'node:net';

import type { FastifyInstance } from 'fastify';

import { isLoopbackHost, type CorsSetting } from './options.js';
import { send, v2Error } from './respond.js';

/** Headers a browser client may send: the SDKs' and upstream's own. */
const ALLOWED_HEADERS = 'Authorization, Content-Type, X-Idempotency-Key, X-Origin, X-Origin-Type';
/** How long a browser may reuse a preflight answer, in seconds. */
const PREFLIGHT_MAX_AGE = 600;

/** Whether `origin` (an `Origin` header) is one the setting allows. */
export function originAllowed(origin: string, setting: CorsSetting): boolean {
  if (setting === '*') return true;
  if (setting === false) return false;
  if (setting === 'loopback') {
    try {
      const { protocol, hostname } = new URL(origin);
      const host = hostname.replace(/^\[|\]$/g, '');
      return (protocol === 'http:' || protocol === 'https:') && (isIP(host) !== 0 || host === 'localhost')
        ? isLoopbackHost(host)
        : false;
    } catch {
      return false;
    }
  }
  return setting.includes(origin);
}

/**
 * CORS: preflights (`OPTIONS` with `Access-Control-Request-Method`) answered 204 before auth, as browsers send no
 * key with them; answers to allowed origins carry `Access-Control-Allow-Origin`. A request from an origin the
 * setting does not allow is refused 403 `ORIGIN_NOT_ALLOWED` before it does anything: a browser sends a form-like
 * POST without a preflight, and the server reads any body as JSON.
 */
export function registerCors(app: FastifyInstance, setting: CorsSetting): void {
  app.addHook('onRequest', async (request, reply) => {
    const origin = request.headers.origin;
    if (origin === undefined) return;
    if (!originAllowed(origin, setting)) {
      return send(
        reply,
        v2Error(
          'ORIGIN_NOT_ALLOWED',
          `Requests from the web origin ${origin} are not allowed: start the server with --cors ${origin} ` +
            '(or the `cors` option) to let that site call it.',
        ),
      );
    }
    reply.header('access-control-allow-origin', setting === '*' ? '*' : origin);
    reply.header('vary', 'Origin');
    if (request.method === 'OPTIONS' && request.headers['access-control-request-method'] !== undefined) {
      reply.header('access-control-allow-methods', 'GET, POST, DELETE, OPTIONS');
      reply.header(
        'access-control-allow-headers',
        request.headers['access-control-request-headers'] ?? ALLOWED_HEADERS,
      );
      reply.header('access-control-max-age', String(PREFLIGHT_MAX_AGE));
      return reply.code(204).send();
    }
  });
}
