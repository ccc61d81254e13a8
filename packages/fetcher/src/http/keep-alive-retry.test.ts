/**
 * A keep-alive socket the server drops when the pool reuses it: a GET or HEAD is sent once more, anything else fails.
 * The server drops deterministically: once `drop` is set, every request after the first on a connection (or every
 * request, with `dropAll`).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

import { afterEach, describe, expect, it } from 'vitest';

import { HttpEngine } from './http-engine.js';

interface DroppingServer {
  url: string;
  /** Requests received, in order, as `METHOD connection#`. */
  requests: string[];
  /** How requests after a connection's first are dropped, if at all: a close (FIN) or a reset (RST). */
  drop: 'close' | 'reset' | undefined;
  /** Drops a new connection's first request too. */
  dropAll: boolean;
  server: Server;
}

let open: { server: Server; engine: HttpEngine } | undefined;

afterEach(async () => {
  await open?.engine.close();
  open?.server.closeAllConnections();
  await new Promise((resolve) => open?.server.close(resolve));
  open = undefined;
});

async function start(): Promise<{ site: DroppingServer; engine: HttpEngine }> {
  const ids = new WeakMap<Socket, { id: number; served: number }>();
  let connectionCount = 0;
  const site: DroppingServer = { url: '', requests: [], drop: undefined, dropAll: false, server: undefined! };
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const conn = ids.get(req.socket) ?? { id: ++connectionCount, served: 0 };
    ids.set(req.socket, conn);
    site.requests.push(`${req.method} ${conn.id}`);
    if (site.drop && (++conn.served > 1 || site.dropAll)) {
      if (site.drop === 'reset') req.socket.resetAndDestroy();
      else req.socket.destroy();
      return;
    }
    conn.served = Math.max(conn.served, 1);
    res.end('ok');
  };
  site.server = createServer(handle);
  await new Promise<void>((resolve) => site.server.listen(0, '127.0.0.1', resolve));
  site.url = `http://127.0.0.1:${(site.server.address() as AddressInfo).port}/`;
  const engine = new HttpEngine({ connections: 1 });
  open = { server: site.server, engine };
  return { site, engine };
}

describe('HttpEngine: a keep-alive socket dropped at reuse', () => {
  it.each(['close', 'reset'] as const)('sends a GET once more when the server %ss the reused socket', async (drop) => {
    const { site, engine } = await start();
    expect((await engine.fetch({ url: site.url })).text).toBe('ok');
    site.drop = drop;
    expect((await engine.fetch({ url: site.url })).text).toBe('ok');
    // the second request went on the pooled connection, the retry on a new one
    expect(site.requests).toEqual(['GET 1', 'GET 1', 'GET 2']);
  });

  it('sends a HEAD once more too', async () => {
    const { site, engine } = await start();
    await engine.fetch({ url: site.url });
    site.drop = 'close';
    expect((await engine.fetch({ url: site.url, method: 'HEAD' })).status).toBe(200);
    expect(site.requests).toEqual(['GET 1', 'HEAD 1', 'HEAD 2']);
  });

  it('does not send a POST again', async () => {
    const { site, engine } = await start();
    await engine.fetch({ url: site.url });
    site.drop = 'close';
    await expect(engine.fetch({ url: site.url, method: 'POST', body: 'x=1' })).rejects.toMatchObject({
      code: 'SCRAPE_CONNECTION_ERROR',
    });
    expect(site.requests).toEqual(['GET 1', 'POST 1']);
  });

  it('sends a GET once more only, when the retry is reset too', async () => {
    const { site, engine } = await start();
    await engine.fetch({ url: site.url });
    site.drop = 'reset';
    site.dropAll = true;
    await expect(engine.fetch({ url: site.url })).rejects.toMatchObject({ code: 'SCRAPE_CONNECTION_ERROR' });
    expect(site.requests).toEqual(['GET 1', 'GET 1', 'GET 2']);
  });

  it.each(['close', 'reset'] as const)(
    'does not send a GET again when the server %ss a new connection before any response',
    async (drop) => {
      const { site, engine } = await start();
      site.drop = drop;
      site.dropAll = true;
      const failed = engine.fetch({ url: site.url });
      await expect(failed).rejects.toMatchObject({ code: 'SCRAPE_CONNECTION_ERROR', dropped: true });
      // a resetting host costs one connection a fetch: the job that asked retries it later, with back-off
      expect(site.requests).toEqual(['GET 1']);
    },
  );
});
