import { Agent, type ClientRequest } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';

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

/** An agent to an `http:` upstream proxy that reports the requests it sends (`AgentWatch`). */
export class WatchedAgent extends Agent {
  readonly #watcher: AgentWatch;

  constructor(watcher: AgentWatch) {
    super();
    this.#watcher = watcher;
  }

  /** Node's `Agent#addRequest` (undeclared in its types): every request the agent serves passes here. */
  addRequest(request: ClientRequest, options: unknown): void {
    watch(request, this.#watcher);
    (Agent.prototype as unknown as { addRequest: AddRequest }).addRequest.call(this, request, options);
  }
}

/** The same for an `https:` upstream proxy. */
export class WatchedHttpsAgent extends HttpsAgent {
  readonly #watcher: AgentWatch;

  constructor(watcher: AgentWatch) {
    super();
    this.#watcher = watcher;
  }

  addRequest(request: ClientRequest, options: unknown): void {
    watch(request, this.#watcher);
    (HttpsAgent.prototype as unknown as { addRequest: AddRequest }).addRequest.call(this, request, options);
  }
}
