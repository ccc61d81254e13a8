import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';

import { generate } from 'selfsigned';

export interface TlsServer {
  url: string;
  close(): Promise<void>;
}

/** An HTTPS server on 127.0.0.1 with a certificate generated at test time and signed by nobody. */
export async function startSelfSignedServer(): Promise<TlsServer> {
  const pems = await generate([{ name: 'commonName', value: 'localhost' }], { keyType: 'ec', algorithm: 'sha256' });
  const server = createServer({ key: pems.private, cert: pems.cert }, (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<p>over TLS</p>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
