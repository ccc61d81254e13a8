/**
 * Preloaded into the client programs under test (`NODE_OPTIONS=--import <this file>`): every TCP connection a Node
 * process opens (plain, TLS, fetch, axios) is recorded in the file `CRAWLKIT_NET_LOG`, and any to a host other than
 * loopback is refused with ECONNREFUSED before a packet leaves. The tests read the log to prove which hosts a client
 * tried to reach.
 */
import { appendFileSync } from 'node:fs';
import { isIP, Socket } from 'node:net';

const log = process.env.CRAWLKIT_NET_LOG;

type Target = { host: string; port: number };

function targetOf(args: unknown[]): Target | undefined {
  // `net.connect` hands over its normalised arguments as one array.
  const first = Array.isArray(args[0]) ? (args[0] as unknown[])[0] : args[0];
  if (first !== null && typeof first === 'object') {
    const options = first as { host?: string; port?: number | string; path?: string };
    if (options.path !== undefined) return undefined;
    return { host: options.host ?? 'localhost', port: Number(options.port) };
  }
  if (typeof first === 'number' || (typeof first === 'string' && /^\d+$/.test(first))) {
    return { host: typeof args[1] === 'string' ? args[1] : 'localhost', port: Number(first) };
  }
  return undefined; // an IPC path
}

function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (bare === 'localhost') return true;
  if (isIP(bare) === 4) return bare.startsWith('127.');
  return bare === '::1' || bare.startsWith('::ffff:127.');
}

// eslint-disable-next-line @typescript-eslint/unbound-method -- called below with the socket as `this`
const connect = Socket.prototype.connect as (this: Socket, ...args: unknown[]) => Socket;
Socket.prototype.connect = function guardedConnect(this: Socket, ...args: unknown[]) {
  const target = targetOf(args);
  if (target) {
    const allowed = isLoopback(target.host);
    if (log) appendFileSync(log, `${JSON.stringify({ ...target, allowed, pid: process.pid })}\n`);
    if (!allowed) {
      const error = Object.assign(new Error(`net-guard: connection to ${target.host}:${target.port} refused`), {
        code: 'ECONNREFUSED',
      });
      process.nextTick(() => this.destroy(error));
      return this;
    }
  }
  return connect.apply(this, args);
};
