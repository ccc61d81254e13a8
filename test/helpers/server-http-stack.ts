/**
 * The serve stack the raw-HTTP server tests share (server-http.test.ts, server-job-socket.test.ts): one API key, a
 * body limit of 4 KiB, `blocked.test` refused by the URL policy and `.invalid` names failing DNS at once.
 */
import type { CrawlkitOptions } from 'crawlkit';
import { afterAll, beforeAll } from 'vitest';

import { startServeStack, type ServeStack } from './serve.ts';

export const KEY = 'fc-test-0123456789';

/** The header that carries `KEY`. */
export const auth = { authorization: `Bearer ${KEY}` };

/** `.invalid` names fail DNS at once, without asking any resolver. */
const lookup: NonNullable<NonNullable<CrawlkitOptions['http']>['lookup']> = (hostname, options, callback) => {
  const error = Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', hostname });
  if (hostname.endsWith('.invalid')) return (callback as (e: Error) => void)(error);
  const answer = options.all ? [{ address: '127.0.0.1', family: 4 }] : '127.0.0.1';
  return (callback as (e: null, a: unknown, f?: number) => void)(null, answer, 4);
};

/** Starts the stack before the file's tests, hands it to `started`, and closes it after them. */
export function useServerHttpStack(started: (stack: ServeStack) => void): void {
  let stack: ServeStack | undefined;
  beforeAll(async () => {
    stack = await startServeStack({
      crawlkit: { urlPolicy: { blockedHosts: ['blocked.test'] }, http: { lookup } },
      server: { apiKeys: [KEY], bodyLimit: 4096 },
    });
    started(stack);
  });
  afterAll(async () => {
    await stack?.close();
  });
}
