/**
 * A port on 127.0.0.1 whose connections are never answered, as a host that drops SYNs: a listener that never accepts
 * (its event loop is held in a worker thread) and whose accept queue is full, so the kernel drops every further SYN
 * (Linux, `tcp_abort_on_overflow` 0, its default) and a connect waits for its time-out.
 */
import { connect, type Socket } from 'node:net';
import { Worker } from 'node:worker_threads';

export interface UnansweredPort {
  port: number;
  close(): Promise<void>;
}

/** The worker: listens with the smallest backlog, says its port, then holds its event loop until told to go. */
const LISTENER = `
const { parentPort, workerData } = require('node:worker_threads');
const net = require('node:net');
const server = net.createServer();
server.listen({ host: '127.0.0.1', port: 0, backlog: 1 }, () => {
  parentPort.postMessage(server.address().port);
  Atomics.wait(new Int32Array(workerData), 0, 0);
  server.close();
  process.exit(0);
});
`;

export async function startUnansweredPort(): Promise<UnansweredPort> {
  const release = new SharedArrayBuffer(4);
  const worker = new Worker(LISTENER, { eval: true, workerData: release });
  const port = await new Promise<number>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  // The accept queue holds backlog + 1 connections: fill it, each one answered by the kernel alone.
  const fillers: Socket[] = [];
  for (let i = 0; i < 2; i++) {
    const socket = connect(port, '127.0.0.1');
    fillers.push(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
  }
  return {
    port,
    close: async () => {
      for (const socket of fillers) socket.destroy();
      const exited = new Promise((resolve) => worker.once('exit', resolve));
      Atomics.store(new Int32Array(release), 0, 1);
      Atomics.notify(new Int32Array(release), 0);
      await exited;
    },
  };
}
