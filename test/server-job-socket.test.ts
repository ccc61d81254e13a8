/**
 * `@crawlkit/server`'s job WebSocket (`/v2/crawl/{id}`, `/v2/batch/scrape/{id}`): auth, unknown ids, and the messages
 * of a job as it runs, against fixture pages on 127.0.0.1.
 */
import { startServer } from '@crawlkit/server';
import { describe, expect, it } from 'vitest';

import type { ServeStack } from './helpers/serve.ts';
import { auth, KEY, useServerHttpStack } from './helpers/server-http-stack.ts';

let stack: ServeStack;
let base: string;
useServerHttpStack((started) => {
  stack = started;
  base = stack.server.url;
});

type SocketMessage = { type: string; data?: Record<string, unknown>; error?: string };

interface SocketSession {
  messages: SocketMessage[];
  code: number;
}

/**
 * A WebSocket session: `messages` fill as they come, `next(type)` resolves at the first message of that type (already
 * received or to come), `ended` resolves with every message and the close code.
 */
function openSocket(
  path: string,
  init: string | { protocols?: string[]; headers?: Record<string, string> },
  at = base,
) {
  const messages: SocketMessage[] = [];
  const waiters: { type: string; resolve: (message: SocketMessage) => void }[] = [];
  const url = `${at.replace(/^http/, 'ws')}${path}`;
  const socket = new WebSocket(url, init as string);
  const ended = new Promise<SocketSession>((resolve, reject) => {
    socket.onmessage = (event) => {
      const message = JSON.parse(String(event.data)) as SocketMessage;
      messages.push(message);
      for (const waiter of waiters.filter((w) => w.type === message.type)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(message);
      }
    };
    socket.onclose = (event) => resolve({ messages, code: event.code });
    socket.onerror = () => reject(new Error(`WebSocket ${path} failed`));
  });
  const next = (type: string) =>
    new Promise<SocketMessage>((resolve, reject) => {
      const seen = messages.find((m) => m.type === type);
      if (seen) return resolve(seen);
      waiters.push({ type, resolve });
      void ended.then(() => reject(new Error(`WebSocket ${path} closed before a ${type} message`)), reject);
    });
  return { messages, ended, next };
}

const socketSession = (path: string, init: Parameters<typeof openSocket>[1]) => openSocket(path, init).ended;

describe('the job WebSocket', () => {
  it('refuses a wrong key with close code 3000, an unknown or malformed id with 1008', async () => {
    const id = '0191f0a4-0000-7000-8000-000000000000';
    expect(await socketSession(`/v2/crawl/${id}`, 'fc-wrong')).toEqual({
      messages: [
        { type: 'error', error: expect.stringMatching(/^Unauthorized: Invalid token: .* by the `apiKeys` option$/) },
      ],
      code: 3000,
    });
    expect(await socketSession(`/v2/crawl/${id}`, KEY)).toEqual({
      messages: [{ type: 'error', error: 'Job not found' }],
      code: 1008,
    });
    expect((await socketSession('/v2/batch/scrape/nope', KEY)).code).toBe(1008);
  });

  it('sends a finished job as catchup then done, at either path, with the key as subprotocol or header', async () => {
    const urls = [stack.page('/listing.html'), stack.page('/docs/getting-started.html')];
    const started = await stack.ck.batchScrape({ urls });
    const id = started.success ? started.id : '';
    await stack.ck.waitForJob(id);
    for (const path of [`/v2/batch/scrape/${id}`, `/v2/crawl/${id}`]) {
      const session = await socketSession(path, { headers: auth });
      expect(session.code).toBe(1000);
      expect(session.messages.map((m) => m.type)).toEqual(['catchup', 'done']);
      expect(session.messages[0]!.data).toMatchObject({ success: true, status: 'completed', total: 2, completed: 2 });
      expect((session.messages[0]!.data!.data as unknown[]).length).toBe(2);
    }
  });

  it('streams documents of a running batch and ends a cancelled one with its status', async () => {
    // One page at a time; the held pages answer when the test releases them, so the batch runs until then.
    const urls = [stack.page('/listing.html'), stack.page('/held/ws-a'), stack.page('/held/ws-b')];
    const started = await stack.ck.batchScrape({ urls, maxConcurrency: 1 });
    const id = started.success ? started.id : '';
    const session = openSocket(`/v2/batch/scrape/${id}`, KEY);
    const catchup = await session.next('catchup');
    expect(catchup.data).toMatchObject({ success: true, status: 'scraping', total: 3 });
    // A page stored after the catch-up comes as a document message of its own.
    stack.release('/held/ws-a');
    const streamed = await session.next('document');
    expect(streamed.data).toMatchObject({ metadata: { sourceURL: stack.page('/held/ws-a') } });
    await stack.ck.cancelBatchScrape(id);
    const { messages, code } = await session.ended;
    expect(code).toBe(1000);
    // Every stored page once: in the catch-up or streamed after it.
    const urlOf = (d: unknown) => (d as { metadata: { sourceURL: string } }).metadata.sourceURL;
    const caught = (catchup.data!.data as unknown[]).map(urlOf);
    const sent = messages.filter((m) => m.type === 'document').map((m) => urlOf(m.data));
    expect([...caught, ...sent].sort()).toEqual([stack.page('/held/ws-a'), stack.page('/listing.html')]);
    expect(messages.slice(-2)).toEqual([
      { type: 'catchup', data: expect.objectContaining({ status: 'cancelled', data: [] }) },
      { type: 'done' },
    ]);
  });

  it('closes its sessions with 1001 when the server closes, and the job runs on', async () => {
    const server = await startServer({ crawlkit: stack.ck, port: 0 });
    const started = await stack.ck.batchScrape({ urls: [stack.page('/held/ws-close')] });
    const id = started.success ? started.id : '';
    const session = openSocket(`/v2/batch/scrape/${id}`, {}, server.url);
    expect((await session.next('catchup')).data).toMatchObject({ status: 'scraping' });
    await server.close();
    expect((await session.ended).code).toBe(1001);
    stack.release('/held/ws-close');
    expect(await stack.ck.waitForJob(id)).toMatchObject({ status: 'completed', completed: 1 });
  });
});
