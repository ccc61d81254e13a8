/**
 * `node --import network-trap.ts`: every network call of the process and of its worker threads (which load it
 * too) is refused and written to the file `$NETWORK_TRAP_LOG`, so that a test can show nothing was attempted.
 */
import { appendFileSync } from 'node:fs';
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { threadId } from 'node:worker_threads';

function trap(what: string): never {
  appendFileSync(process.env.NETWORK_TRAP_LOG!, `thread ${threadId}: ${what}\n`);
  throw new Error(`network trap: ${what}`);
}

net.Socket.prototype.connect = function connect(...args: unknown[]) {
  return trap(`net connect ${JSON.stringify(args[0])}`);
};
http.request = (...args: unknown[]) => trap(`http.request ${String(args[0])}`);
https.request = (...args: unknown[]) => trap(`https.request ${String(args[0])}`);
dns.lookup = ((host: string) => trap(`dns.lookup ${host}`)) as unknown as typeof dns.lookup;
globalThis.fetch = (input: unknown) => {
  try {
    return trap(`fetch ${String(input)}`);
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
};
