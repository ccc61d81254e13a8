/** Requests through a forward proxy (the network gate's listeners), for the gate's tests without a browser. */
import { request } from 'node:http';

/** The status a CONNECT for `target` (`host:port`) gets from the proxy at `proxyUrl`. */
export function connectVia(proxyUrl: string, target: string): Promise<number> {
  const proxy = new URL(proxyUrl);
  return new Promise((resolve, reject) => {
    const req = request({ host: proxy.hostname, port: Number(proxy.port), method: 'CONNECT', path: target });
    req.on('connect', (res, socket) => {
      socket.destroy();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}
