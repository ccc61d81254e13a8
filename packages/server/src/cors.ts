import type { IncomingHttpHeaders } from 'node:http';
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

/** What the CORS rule makes of a request: refused, or answered with these headers (a preflight with nothing else). */
export type CorsVerdict =
  { allowed: false; origin: string } | { allowed: true; headers: Record<string, string>; preflight: boolean };

/**
 * The CORS rule for one request (`undefined` without an `Origin` header: not a browser's cross-origin call). Allowed
 * origins get `Access-Control-Allow-Origin`; a preflight (`OPTIONS` with `Access-Control-Request-Method`) gets the
 * methods and headers it may use, and is answered 204 by the caller. Shared by `crawlkit serve` and `crawlkit mcp`.
 */
export function corsVerdict(
  request: { method?: string | undefined; headers: IncomingHttpHeaders },
  setting: CorsSetting,
): CorsVerdict | undefined {
  const origin = request.headers.origin;
  if (origin === undefined) return undefined;
  if (!originAllowed(origin, setting)) return { allowed: false, origin };
  const headers: Record<string, string> = {
    'access-control-allow-origin': setting === '*' ? '*' : origin,
    vary: 'Origin',
  };
  const preflight = request.method === 'OPTIONS' && request.headers['access-control-request-method'] !== undefined;
  if (preflight) {
    headers['access-control-allow-methods'] = 'GET, POST, PATCH, DELETE, OPTIONS';
    const asked = request.headers['access-control-request-headers'];
    headers['access-control-allow-headers'] = typeof asked === 'string' ? asked : ALLOWED_HEADERS;
    headers['access-control-max-age'] = String(PREFLIGHT_MAX_AGE);
  }
  return { allowed: true, headers, preflight };
}

/**
 * CORS: preflights answered 204 before auth, as browsers send no key with them; answers to allowed origins carry
 * `Access-Control-Allow-Origin`. A request from an origin the setting does not allow is refused 403
 * `ORIGIN_NOT_ALLOWED` before it does anything: a browser sends a form-like POST without a preflight, and the server
 * reads any body as JSON.
 */
export function registerCors(app: FastifyInstance, setting: CorsSetting): void {
  app.addHook('onRequest', async (request, reply) => {
    const verdict = corsVerdict(request.raw, setting);
    if (!verdict) return;
    if (!verdict.allowed) {
      return send(
        reply,
        v2Error(
          'ORIGIN_NOT_ALLOWED',
          `Requests from the web origin ${verdict.origin} are not allowed: start the server with --cors ` +
            `${verdict.origin} (or the \`cors\` option) to let that site call it.`,
        ),
      );
    }
    reply.headers(verdict.headers);
    if (verdict.preflight) return reply.code(204).send();
  });
}
