import type { IncomingMessage } from 'node:http';

import type { FastifyRequest } from 'fastify';

/** How a request is addressed: the base of the job URLs it is answered with, and the path prefix routing strips. */
export interface Addressing {
  /** `<protocol>://<host>[/prefix]`, without a trailing slash. */
  base(request: FastifyRequest): string;
  /** Fastify's `rewriteUrl` when the public URL has a path: `/crawlkit/v2/scrape` is routed as `/v2/scrape`. */
  rewriteUrl?: (request: IncomingMessage) => string;
}

/**
 * The addressing of a server with its `publicUrl`, if any. Without one, each request's own protocol and host (Fastify
 * reads `X-Forwarded-Proto` and `X-Forwarded-Host` there only from the peers `trustProxy` names).
 */
export function addressing(publicUrl: string | undefined): Addressing {
  if (publicUrl === undefined) return { base: (request) => `${request.protocol}://${request.host}` };
  const prefix = new URL(publicUrl).pathname.replace(/\/+$/, '');
  if (!prefix) return { base: () => publicUrl };
  return {
    base: () => publicUrl,
    rewriteUrl: (request) => {
      const url = request.url ?? '/';
      if (!url.startsWith(prefix)) return url;
      const rest = url.slice(prefix.length);
      if (rest === '' || rest.startsWith('?')) return `/${rest}`;
      return rest.startsWith('/') ? rest : url;
    },
  };
}
