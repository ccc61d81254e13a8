import { Agent, type ClientRequest } from 'node:http';

/** An agent that reports the errors of the tunnels it opens (to an upstream proxy) with their target, `host:port`. */
export class WatchedAgent extends Agent {
  readonly #onError: (error: NodeJS.ErrnoException, target: string) => void;

  constructor(onError: (error: NodeJS.ErrnoException, target: string) => void) {
    super();
    this.#onError = onError;
  }

  /** Node's `Agent#addRequest` (undeclared in its types): every request the agent serves passes here. */
  addRequest(request: ClientRequest, options: unknown): void {
    if (request.method === 'CONNECT') {
      request.once('error', (error: NodeJS.ErrnoException) => this.#onError(error, request.path));
    }
    (Agent.prototype as unknown as { addRequest(request: ClientRequest, options: unknown): void }).addRequest.call(
      this,
      request,
      options,
    );
  }
}
