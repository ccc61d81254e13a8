import { createServer, request, type IncomingMessage } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';

export interface TestProxy {
  url: string;
  /** `host:port` of every CONNECT seen, in order. */
  tunnels: string[];
  /** The absolute URL of every plain (forwarded) request seen, in order. */
  forwarded: string[];
  close(): Promise<void>;
}

export interface TestProxyOptions {
  /**
   * Where every request really goes (the "internet" of the test): `127.0.0.1:<port>`. Default: the requested target.
   */
  routeTo?: { host: string; port: number };
  /** Required `user:pass`; a request or CONNECT without it gets 407. */
  credentials?: string;
  /** Refuse every CONNECT with this status (a proxy whose rules forbid the target). */
  refuseConnect?: number;
}

/** A minimal forward proxy on 127.0.0.1 for tests: CONNECT tunnels, and plain requests in absolute form. */
export async function startConnectProxy(options: TestProxyOptions = {}): Promise<TestProxy> {
  const tunnels: string[] = [];
  const forwarded: string[] = [];
  const sockets = new Set<Socket>();
  const authorized = (req: IncomingMessage) =>
    !options.credentials ||
    req.headers['proxy-authorization'] === `Basic ${Buffer.from(options.credentials).toString('base64')}`;
  const server = createServer((req, res) => {
    forwarded.push(req.url ?? '');
    if (!authorized(req)) return void res.writeHead(407, { 'proxy-authenticate': 'Basic' }).end();
    let target: URL;
    try {
      target = new URL(req.url ?? '');
    } catch {
      return void res.writeHead(400).end();
    }
    const headers = { ...req.headers };
    delete headers['proxy-authorization'];
    delete headers['proxy-connection'];
    const upstream = request(
      {
        host: options.routeTo?.host ?? target.hostname,
        port: options.routeTo?.port ?? (Number(target.port) || 80),
        method: req.method,
        path: target.pathname + target.search,
        headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    tunnels.push(req.url ?? '');
    if (!authorized(req)) {
      client.end(
        'HTTP/1.1 407 Proxy Authentication Required\r\nproxy-authenticate: Basic\r\ncontent-length: 0\r\n\r\n',
      );
      return;
    }
    if (options.refuseConnect) {
      client.end(`HTTP/1.1 ${options.refuseConnect} Refused\r\ncontent-length: 0\r\n\r\n`);
      return;
    }
    const [host, port] = options.routeTo
      ? [options.routeTo.host, options.routeTo.port]
      : [req.url!.replace(/:\d+$/, ''), Number(req.url!.split(':').pop())];
    const upstream = connect(port, host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    tunnels,
    forwarded,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
