import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Cancellation over the stateless streamable HTTP endpoint. A client cancels a call by a `notifications/cancelled`
 * in a POST of its own (the MCP SDK's client never closes the call's connection), which a stateless server answers
 * with a fresh transport that knows no call: the call, and a crawl it started, ran on. So the endpoint names each
 * client at its `initialize` by an `Mcp-Session-Id` (a random id, no session state: any POST is still answered by a
 * fresh server), which clients send back on every request; a cancellation ends the call of that client with that
 * request id by closing its connection, as a client gone would (its tool sees its signal aborted).
 */
export class HttpCancels {
  /** The connection of each call under way, by `client id, request id`. */
  readonly #calls = new Map<string, ServerResponse>();

  /**
   * Before a POST is answered: names a client at its `initialize`, keeps the connection of each request it makes
   * until it closes, and closes those a `notifications/cancelled` of the same client names.
   */
  take(req: IncomingMessage, res: ServerResponse, body: unknown, tenant: string | undefined): void {
    const messages = (Array.isArray(body) ? body : [body]) as Message[];
    if (messages.some((message) => message?.method === 'initialize' && message.id !== undefined)) {
      res.setHeader('mcp-session-id', randomUUID());
      // A browser's client (the MCP inspector) reads it only when exposed; it sends it back after a preflight.
      res.setHeader('access-control-expose-headers', 'mcp-session-id');
      return;
    }
    const client = req.headers['mcp-session-id'];
    if (typeof client !== 'string' || client === '') return;
    for (const message of messages) {
      if (message?.method === 'notifications/cancelled') {
        const id = message.params?.requestId;
        if (typeof id === 'string' || typeof id === 'number') this.#calls.get(keyOf(tenant, client, id))?.destroy();
      } else if (message?.method !== undefined && (typeof message.id === 'string' || typeof message.id === 'number')) {
        const key = keyOf(tenant, client, message.id);
        this.#calls.set(key, res);
        res.on('close', () => {
          if (this.#calls.get(key) === res) this.#calls.delete(key);
        });
      }
    }
  }
}

interface Message {
  method?: string;
  id?: unknown;
  params?: { requestId?: unknown };
}

/** A call's key: the API key's tenant too, so that one key's client id never reaches another's calls. */
function keyOf(tenant: string | undefined, client: string, id: string | number): string {
  return JSON.stringify([tenant ?? null, client, id]);
}
