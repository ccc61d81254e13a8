import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';

import { generate } from 'selfsigned';

export interface TlsServer {
  url: string;
  close(): Promise<void>;
}

export interface TlsServerOptions {
  /** A certificate of this company CA (`createCa()`) instead of one signed by nobody. */
  ca?: { key: string; cert: string };
  /** The name the certificate is for. Default `localhost`. */
  host?: string;
  /** A certificate that ran out in 2020. */
  expired?: boolean;
}

/** A private CA, as a company that inspects TLS has: its key and certificate (PEM). */
export async function createCa(): Promise<{ key: string; cert: string }> {
  const pems = await generate([{ name: 'commonName', value: 'Corp Test CA' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true },
    ],
  });
  return { key: pems.private, cert: pems.cert };
}

/** An HTTPS server on 127.0.0.1 with a certificate generated at test time: signed by nobody, or by `options.ca`. */
export async function startSelfSignedServer(options: TlsServerOptions = {}): Promise<TlsServer> {
  const host = options.host ?? 'localhost';
  const pems = await generate([{ name: 'commonName', value: host }], {
    keyType: 'ec',
    algorithm: 'sha256',
    ...(options.ca ? { ca: options.ca } : {}),
    ...(options.expired ? { notBeforeDate: new Date('2020-01-01'), notAfterDate: new Date('2020-02-01') } : {}),
    ...(options.ca
      ? {
          extensions: [
            { name: 'basicConstraints', cA: false },
            { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
            { name: 'extKeyUsage', serverAuth: true },
            { name: 'subjectAltName', altNames: [{ type: 2, value: host }] },
          ],
        }
      : {}),
  });
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
