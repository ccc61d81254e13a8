import { Agent, type ClientRequest } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';

import { connectLimited } from './gate-connect.js';

/** What the gate is told of the requests an agent sends to an upstream proxy, by their target (`host:port`). */
export interface AgentWatch {
  /** The request (a CONNECT, or a plain request in absolute form) could not be sent: no connection to the proxy. */
  onError(error: NodeJS.ErrnoException, target: string): void;
  /** The request left for the proxy; `settled` is called once it answered, failed or was given up. */
  onPending(target: string): { settled(): void };
}

/** `host:port` of a request to a proxy: the path of a CONNECT, the absolute URL of a plain request. */
function targetOf(request: ClientRequest): string {
  if (request.method === 'CONNECT') return request.path;
  try {
    const url = new URL(request.path);
    return `${url.hostname}:${url.port || (url.protocol === 'https:' ? '443' : '80')}`;
  } catch {
    return request.path;
  }
}

function watch(request: ClientRequest, watcher: AgentWatch): void {
  const target = targetOf(request);
  const pending = watcher.onPending(target);
  const settled = () => pending.settled();
  request.once(request.method === 'CONNECT' ? 'connect' : 'response', settled);
  request.once('close', settled);
  request.once('error', (error: NodeJS.ErrnoException) => {
    settled();
    if (request.method === 'CONNECT') watcher.onError(error, target);
  });
}

type AddRequest = (request: ClientRequest, options: unknown) => void;

/** `agent`, with every request it serves (Node's undeclared `addRequest`) reported to `watcher` first. */
function watched<T extends Agent>(agent: T, watcher: AgentWatch): T {
  const target = agent as unknown as { addRequest: AddRequest };
  const addRequest = target.addRequest.bind(agent);
  target.addRequest = (request, options) => {
    watch(request, watcher);
    addRequest(request, options);
  };
  return agent;
}

/**
 * The agents to an upstream proxy, `http:` and `https:`, that report the requests they send (`AgentWatch`), their
 * connections to the proxy limited to `connectMs`.
 */
export function watchedAgents(watcher: AgentWatch, connectMs: number): { http: Agent; https: HttpsAgent } {
  return {
    http: watched(connectLimited(new Agent(), connectMs), watcher),
    https: watched(connectLimited(new HttpsAgent(), connectMs), watcher),
  };
}
