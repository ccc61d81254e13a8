/**
 * Issue 38, finding 2: the page cache never answers a request it should not reach. A page is cached under who it was
 * fetched as (scheme, the credentials in its URL, whether TLS was verified), so a page fetched with a password, over
 * plain HTTP or with verification off is never served to a request without the password, over HTTPS, or with
 * verification on. One real server on one port answers both HTTP and HTTPS (a self-signed certificate).
 */
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { Duplex } from 'node:stream';

import { Crawlkit } from 'crawlkit';
import { generate } from 'selfsigned';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const hits: { path: string; secure: boolean; auth?: string }[] = [];
let base: string;
let close: () => Promise<void>;
let ck: Crawlkit;

function handler(secure: boolean) {
  return (req: IncomingMessage, res: ServerResponse) => {
    const path = req.url ?? '/';
    hits.push({ path, secure, ...(req.headers.authorization ? { auth: req.headers.authorization } : {}) });
    if (path.startsWith('/private')) {
      const expected = `Basic ${Buffer.from('user:pw').toString('base64')}`;
      if (req.headers.authorization !== expected) {
        res.writeHead(401, { 'content-type': 'text/html' }).end('<html><body><p>Sign in first.</p></body></html>');
        return;
      }
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(
        '<html><body><main><p>The private page: account number 42, for the signed-in user only.</p></main></body></html>',
      );
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(
      `<html><body><main><p>A page served over ${secure ? 'TLS' : 'plain HTTP'}, long enough to keep.</p></main></body></html>`,
    );
  };
}

/**
 * The socket as a plain stream that starts with the bytes already read: TLS reads a real socket through its handle,
 * past anything put back into its JavaScript buffer.
 */
function streamOf(socket: Socket, first: Buffer): Duplex {
  const stream = new Duplex({
    read: () => undefined,
    write: (chunk: Buffer, _encoding, done) => socket.write(chunk, done),
    final: (done) => socket.end(done),
    destroy: (error, done) => {
      socket.destroy();
      done(error);
    },
  });
  stream.push(first);
  socket.on('data', (chunk) => stream.push(chunk));
  socket.on('end', () => stream.push(null));
  socket.on('error', (error) => stream.destroy(error));
  return stream;
}

beforeAll(async () => {
  const pems = await generate([{ name: 'commonName', value: 'localhost' }], { keyType: 'ec', algorithm: 'sha256' });
  const plain = createHttpServer(handler(false));
  const tls = createHttpsServer({ key: pems.private, cert: pems.cert }, handler(true));
  const sockets = new Set<Socket>();
  // One port, both protocols: a TLS client hello starts with the handshake record type 22.
  const front = createNetServer((socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.once('data', (first: Buffer) => {
      if (first[0] === 22) {
        tls.emit('connection', streamOf(socket, first));
        return;
      }
      socket.pause();
      socket.unshift(first);
      plain.emit('connection', socket);
      socket.resume();
    });
  });
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  base = `127.0.0.1:${(front.address() as AddressInfo).port}`;
  close = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      front.close(() => resolve());
    });
  ck = new Crawlkit({ store: 'memory', engine: 'http' });
});

afterAll(async () => {
  await ck.close();
  await close();
});

const scrape = (url: string, extra: object = {}) => ck.scrape({ url, maxAge: 600_000, ...extra });

describe('the page cache key holds who the page was fetched as', () => {
  it('never serves a page fetched with credentials in its URL to a request without them', async () => {
    const signedIn = await scrape(`http://user:pw@${base}/private`);
    expect(signedIn).toMatchObject({ success: true, data: { metadata: { statusCode: 200 } } });
    if (!signedIn.success) return;
    expect(signedIn.data.markdown).toContain('account number 42');
    // Same credentials: the cache answers.
    expect(await scrape(`http://user:pw@${base}/private`)).toMatchObject({ data: { metadata: { cacheState: 'hit' } } });

    const before = hits.length;
    const anonymous = await scrape(`http://${base}/private`);
    expect(anonymous).toMatchObject({ success: true, data: { metadata: { statusCode: 401, cacheState: 'miss' } } });
    if (anonymous.success) expect(anonymous.data.markdown).not.toContain('account number 42');
    expect(hits.slice(before)).toEqual([{ path: '/private', secure: false }]);
    // Other credentials do not match either.
    const other = await scrape(`http://user:other@${base}/private`);
    expect(other).toMatchObject({ success: true, data: { metadata: { statusCode: 401 } } });
  });

  it('never serves a plain-HTTP page to an https: request', async () => {
    expect(await scrape(`http://${base}/page`)).toMatchObject({ success: true });
    const secure = await scrape(`https://${base}/page`, { skipTlsVerification: false });
    // A fresh request: the certificate is signed by nobody.
    expect(secure).toMatchObject({ success: false, code: 'SCRAPE_SSL_ERROR' });
  });

  it('never serves a page fetched with TLS verification off to a request that asks for it', async () => {
    const unverified = await scrape(`https://${base}/tls`);
    expect(unverified).toMatchObject({ success: true, data: { metadata: { cacheState: 'miss' } } });
    expect(await scrape(`https://${base}/tls`)).toMatchObject({ data: { metadata: { cacheState: 'hit' } } });
    const verified = await scrape(`https://${base}/tls`, { skipTlsVerification: false });
    expect(verified).toMatchObject({ success: false, code: 'SCRAPE_SSL_ERROR' });
  });
});
