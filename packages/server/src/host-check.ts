import type { FastifyInstance } from 'fastify';

import { isLoopbackHost } from './options.js';
import { send, v2Error } from './respond.js';

/** The host name of a `Host` header (`name:port`, `[v6]:port`), lower-cased; `undefined` when it has none. */
function hostOf(header: string | undefined): string | undefined {
  if (!header) return undefined;
  try {
    return new URL(`http://${header}`).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}

/**
 * Whether a keyless server answers a request naming `header` as its `Host`: a loopback name or address, or
 * `publicHost` (the host of `publicUrl`). Anything else is a web page that rebound its own name to 127.0.0.1 (DNS
 * rebinding): the browser sends no `Origin` with a same-origin GET, so without this a page the operator visits could
 * list and read the jobs.
 */
export function hostAllowed(header: string | undefined, publicHost: string | undefined): boolean {
  const host = hostOf(header);
  if (host === undefined) return false;
  return isLoopbackHost(host) || host === publicHost;
}

/**
 * Why a request naming `header` as its `Host` is refused, and what to do; `publicUrlHint` names `--public-url` where
 * the server has one (`crawlkit serve`; `crawlkit mcp --http` has none). One text for both servers.
 */
export function hostRefusal(header: string | undefined, publicUrlHint = ''): string {
  return (
    `Requests for the host ${header ?? '(none)'} are not allowed: a server without API keys answers only ` +
    'loopback names (localhost, 127.0.0.1, [::1]) so that a web page cannot reach it by DNS rebinding. Use ' +
    `http://127.0.0.1:<port>, ${publicUrlHint}or start it with an API key.`
  );
}

/**
 * On a server without API keys (loopback only), refuses 403 `ORIGIN_NOT_ALLOWED` a request whose `Host` is not a
 * loopback name or the `publicUrl`'s host, before anything runs. With keys a rebinding page has no key to send.
 */
export function registerHostCheck(app: FastifyInstance, publicUrl: string | undefined): void {
  const publicHost = publicUrl === undefined ? undefined : new URL(publicUrl).hostname.toLowerCase();
  app.addHook('onRequest', async (request, reply) => {
    const header = request.headers.host;
    if (hostAllowed(header, publicHost)) return;
    return send(
      reply,
      v2Error('ORIGIN_NOT_ALLOWED', hostRefusal(header, 'give --public-url for the name a proxy forwards, ')),
    );
  });
}
