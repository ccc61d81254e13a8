import { clearTimeout, setTimeout } from 'node:timers';
import { Agent } from 'node:http';
import { Socket } from 'node:net';
import { TLSSocket } from 'node:tls';

/** The error of a connection the gate gave up on: ETIMEDOUT, as the system's own time-out (proxy-chain: 504). */
export class GateConnectTimeout extends Error {
  readonly code = 'ETIMEDOUT';
  constructor(ms: number) {
    super(`connect ETIMEDOUT: no connection within ${ms} ms (connectTimeoutMs)`);
  }
}

/**
 * Gives up on `socket` unless it is connected (and, for TLS, through its handshake) within `ms`: `onGiveUp` runs,
 * then the socket is destroyed with a `GateConnectTimeout` (without one when `onGiveUp` says it answered the client
 * itself). Without this, a host that drops SYNs holds the connection for the system's time-out, about two minutes.
 */
export function limitConnect(socket: Socket, ms: number, onGiveUp?: () => boolean): void {
  if (!socket.connecting) return;
  const done = socket instanceof TLSSocket ? 'secureConnect' : 'connect';
  const timer = setTimeout(() => {
    const answered = onGiveUp?.() ?? false;
    socket.destroy(answered ? undefined : new GateConnectTimeout(ms));
  }, ms);
  timer.unref();
  const clear = () => clearTimeout(timer);
  socket.once(done, clear);
  socket.once('close', clear);
}

/** `agent`, its every new connection limited to `ms` (`limitConnect`). */
export function connectLimited<T extends Agent>(agent: T, ms: number): T {
  const create = agent.createConnection.bind(agent);
  agent.createConnection = (options, callback) => {
    const socket = create(options, callback);
    if (socket instanceof Socket) limitConnect(socket, ms);
    return socket;
  };
  return agent;
}

/** The agent of the gate's plain requests sent direct (proxy-chain's forward path), its connections limited to `ms`. */
export function directAgent(ms: number): Agent {
  return connectLimited(new Agent(), ms);
}

/** The gate's answer to a tunnel whose target never answered (proxy-chain's status for a connect time-out). */
const TUNNEL_TIMED_OUT = 'HTTP/1.1 504 Gateway Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n';

/**
 * Limits to `ms` the connection a tunnel (CONNECT) on `source` opens to its target, which proxy-chain opens itself
 * and pipes into `source` (a tunnel through an upstream proxy is piped once connected, its agent limits it). On
 * giving up, `onGiveUp` runs and the client is answered 504.
 */
export function limitTunnel(source: Socket, ms: number, onGiveUp: () => void): void {
  source.once('pipe', (target) => {
    if (!(target instanceof Socket)) return;
    limitConnect(target, ms, () => {
      onGiveUp();
      if (source.writable) source.write(TUNNEL_TIMED_OUT);
      return true;
    });
  });
}
