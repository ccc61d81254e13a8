import { createHash } from 'node:crypto';

import type { Redis } from 'ioredis';

import { SCRIPTS, type ScriptName } from '../scripts.js';

const SHAS = Object.fromEntries(
  Object.entries(SCRIPTS).map(([name, lua]) => [name, createHash('sha1').update(lua).digest('hex')]),
) as Record<ScriptName, string>;

/**
 * Runs the store's Lua scripts by SHA, loading a script once when the server does not know it yet (after a restart or
 * a `SCRIPT FLUSH`). Every script takes the key prefix first.
 */
export class ScriptRunner {
  readonly #client: Redis;
  readonly #prefix: string;

  constructor(client: Redis, prefix: string) {
    this.#client = client;
    this.#prefix = prefix;
  }

  get client(): Redis {
    return this.#client;
  }

  get prefix(): string {
    return this.#prefix;
  }

  /** The full key of a part of the layout. */
  key(...parts: string[]): string {
    return [this.#prefix, ...parts].join(':');
  }

  async run(name: ScriptName, ...args: (string | number | Uint8Array)[]): Promise<unknown> {
    // Bytes go as they are (ioredis sends a Buffer binary-safe).
    const argv = [
      this.#prefix,
      ...args.map((arg) =>
        arg instanceof Uint8Array ? Buffer.from(arg.buffer, arg.byteOffset, arg.byteLength) : String(arg),
      ),
    ];
    try {
      return await this.#client.evalsha(SHAS[name], 0, ...argv);
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      return this.#client.eval(SCRIPTS[name], 0, ...argv);
    }
  }
}

/** Whether a script rejected with `redis.error_reply(code)`. */
export function isReply(error: unknown, code: string): boolean {
  // Redis prefixes a reply without an error code of its own with `ERR `.
  return error instanceof Error && (error.message === code || error.message.startsWith(`ERR ${code}`));
}
