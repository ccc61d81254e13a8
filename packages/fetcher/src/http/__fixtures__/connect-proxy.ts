import { createServer, type IncomingMessage } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';

export interface TestProxy {
  url: string;
  /** `host:port` of every CONNECT seen, in order. */
  tunnels: string[];
  close(): Promise<void>;
}

export interface TestProxyOptions {
  /** Where every tunnel really goes (the "internet" of the test): `127.0.0.1:<port>`. Default: the requested target. */
  routeTo?: { host: string; port: number };
  /** Required `user:pass`; a CONNECT without it gets 407. */
  credentials?: string;
}

/** A minimal HTTP CONNECT proxy on 127.0.0.1 for tests. */
export async function startConnectProxy(options: TestProxyOptions = {}): Promise<TestProxy> {
  const tunnels: string[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((_req, res) => res.writeHead(405).end());
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    tunnels.push(req.url ?? '');
    if (options.credentials) {
      const expected = `Basic ${Buffer.from(options.credentials).toString('base64')}`;
      if (req.headers['proxy-authorization'] !== expected) {
        client.end(
          'HTTP/1.1 407 Proxy Authentication Required\r\nproxy-authenticate: Basic\r\ncontent-length: 0\r\n\r\n',
        );
        return;
      }
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
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
