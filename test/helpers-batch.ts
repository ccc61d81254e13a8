/**
 * Shared pieces of the batch and webhook tests: a real webhook receiver on 127.0.0.1, slow fixture routes that count
 * concurrent requests, and small assertions on v2 responses.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

import { verifyWebhook, type ErrorResponse, type WebhookPayload } from 'crawlkit';

import type { Routes } from '../fixtures/server.ts';

export function ok<T extends { success: boolean }>(value: T | ErrorResponse): Exclude<T, ErrorResponse> {
  if (!value.success)
    throw new Error(`unexpected error: ${(value as ErrorResponse).code} ${(value as ErrorResponse).error}`);
  return value as Exclude<T, ErrorResponse>;
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export async function until(check: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`condition not met within ${timeoutMs} ms`);
    await sleep(25);
  }
}

export interface ReceivedEvent {
  payload: WebhookPayload;
  raw: string;
  headers: IncomingHttpHeaders;
}

export interface Receiver {
  url: string;
  port: number;
  /** Deliveries answered 2xx, in arrival order. */
  events: ReceivedEvent[];
  /** Every request, answered or not (retries included). */
  attempts: number;
  /** The delivery id header of every request, in arrival order (retries included). */
  deliveryIds: string[];
  /** Most requests of one job in flight at once. */
  maxInFlight: number;
  close(): Promise<void>;
}

export interface ReceiverOptions {
  /** Answer the first N requests with this status (503 by default). */
  failFirst?: number;
  failStatus?: number;
  /** Status answered to every request (no event is recorded unless it is 2xx). */
  status?: number;
  /** Delay before answering, in milliseconds. */
  delayMs?: number | (() => number);
  /** Never answer (for timeouts). */
  hang?: boolean;
  /** Listen on this port (to bring a receiver up where a previous one was down). */
  port?: number;
  /** Verify each delivery with `verifyWebhook` and this secret, answering 401 (no event) to one that fails. */
  verifySecret?: string;
}

/** A webhook receiver that records events, can fail or stall its first deliveries, and counts overlap. */
export async function startReceiver(options: ReceiverOptions = {}): Promise<Receiver> {
  let inFlight = 0;
  const sockets = new Set<Socket>();
  const http: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      receiver.attempts++;
      receiver.deliveryIds.push(String(req.headers['x-crawlkit-delivery']));
      if (options.hang) return;
      inFlight++;
      receiver.maxInFlight = Math.max(receiver.maxInFlight, inFlight);
      const delay = typeof options.delayMs === 'function' ? options.delayMs() : (options.delayMs ?? 0);
      setTimeout(() => {
        inFlight--;
        const raw = Buffer.concat(chunks).toString('utf8');
        const unverified = options.verifySecret !== undefined && !verifyWebhook(raw, req.headers, options.verifySecret);
        const status = unverified
          ? 401
          : receiver.attempts <= (options.failFirst ?? 0)
            ? (options.failStatus ?? 503)
            : (options.status ?? 200);
        if (status >= 200 && status < 300) {
          receiver.events.push({ payload: JSON.parse(raw) as WebhookPayload, raw, headers: req.headers });
        }
        res.writeHead(status).end();
      }, delay);
    });
  });
  http.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => http.listen(options.port ?? 0, '127.0.0.1', r));
  const port = (http.address() as AddressInfo).port;
  const receiver: Receiver = {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    events: [],
    attempts: 0,
    deliveryIds: [],
    maxInFlight: 0,
    close: () =>
      new Promise((r) => {
        for (const s of sockets) s.destroy();
        http.close(() => r());
      }),
  };
  return receiver;
}

/** A port nothing listens on (yet): listen, note the port, close. */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((r) => probe.close(() => r()));
  return port;
}

/** Fixture routes: `/slow/<n>?ms=` answers a small article page after `ms` and counts requests in flight. */
export function slowRoutes(): { routes: Routes; stats: { inFlight: number; maxInFlight: number; served: number } } {
  const stats = { inFlight: 0, maxInFlight: 0, served: 0 };
  const routes: Routes = {
    '/slow/*': (req, res, ctx) => {
      const ms = Number(ctx.url.searchParams.get('ms') ?? 50);
      stats.inFlight++;
      stats.maxInFlight = Math.max(stats.maxInFlight, stats.inFlight);
      setTimeout(() => {
        stats.inFlight--;
        stats.served++;
        const name = ctx.url.pathname.split('/').pop();
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(
          `<!doctype html><html><head><title>Slow ${name}</title></head><body><main><h1>Slow page ${name}</h1>` +
            `<p>This page took ${ms} milliseconds to answer and says so in a sentence long enough to be content.</p>` +
            `</main></body></html>`,
        );
      }, ms);
      void req;
    },
  };
  return { routes, stats };
}
