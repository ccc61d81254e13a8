/**
 * The ports the network-gate tests aim at (network-gate.test.ts, network-gate-proxies.test.ts): a port the URL policy
 * refuses, on 127.0.0.1 and on [::1], that tells each connection it gets; and an allowed control port that tells its
 * own, proof that a probe really ran.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

import { afterAll, beforeAll, beforeEach } from 'vitest';

export function listen(server: Server, host: string, port = 0): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve((server.address() as AddressInfo).port));
  });
}

/** The ports and what they have seen since the file's last test began. */
export interface GateTargets {
  targetPort: number;
  controlPort: number;
  /** The local address of each connection to the refused port. */
  connections: string[];
  /** Connections to the control port. */
  controlConnections: number;
}

/**
 * Registers the file's `beforeAll`/`afterAll` that start and close the ports, and the `beforeEach` that forgets what
 * they saw; `update` is given the state once they listen and at every change.
 */
export function useGateTargets(update: (targets: GateTargets) => void): void {
  const servers: Server[] = [];
  const state: GateTargets = { targetPort: 0, controlPort: 0, connections: [], controlConnections: 0 };
  beforeAll(async () => {
    const targetServer = () => {
      const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('reached'));
      server.on('connection', (socket: Socket) => {
        state.connections.push(`${socket.localAddress ?? ''}`);
        update(state);
      });
      server.on('upgrade', (_req: IncomingMessage, socket: Socket) => socket.destroy());
      servers.push(server);
      return server;
    };
    state.targetPort = await listen(targetServer(), '127.0.0.1');
    await listen(targetServer(), '::1', state.targetPort);
    const control = createServer((_req, res) => res.writeHead(200).end('control'));
    control.on('connection', () => {
      state.controlConnections++;
      update(state);
    });
    control.on('upgrade', (_req: IncomingMessage, socket: Socket) => socket.destroy());
    servers.push(control);
    state.controlPort = await listen(control, '127.0.0.1');
    update(state);
  });
  afterAll(async () => {
    for (const server of servers) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
  beforeEach(() => {
    state.connections = [];
    state.controlConnections = 0;
    update(state);
  });
}
