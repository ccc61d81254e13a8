/**
 * Over stdio, the process's stdout is the JSON-RPC stream: one line that is not a message (a dependency's
 * `console.log`, a worker thread's) breaks it for the host.
 */
import { Writable } from 'node:stream';

type Write = NodeJS.WritableStream['write'];

/** A stream guarded, and the channel its JSON-RPC goes through. */
const guarded = new WeakMap<NodeJS.WritableStream, Writable>();

/**
 * Keeps `stdout` for MCP's messages: from now on, whatever else the process writes to it goes to `stderr` instead:
 * `console.log` and `process.stdout.write` of the main thread, and those of every worker thread (the extraction pool,
 * OCR, any other), which Node pipes into the main thread's `process.stdout`. Returns the channel the transport writes
 * its messages to (to `stdout` as it was) and `release`, which gives `stdout` back its own `write`. Guarding a stream
 * already guarded returns the same channel. Lines written before the call (a `--require` preload's, at load) are out
 * of its reach.
 */
export function guardStdout(
  stdout: NodeJS.WritableStream,
  stderr: NodeJS.WritableStream,
): { channel: Writable; release(): void } {
  const known = guarded.get(stdout);
  if (known) return { channel: known, release: () => undefined };
  const own = Object.prototype.hasOwnProperty.call(stdout, 'write');
  // Kept unbound: it is called on `stdout` by the channel, and put back as it was by `release`.
  // eslint-disable-next-line @typescript-eslint/unbound-method
  const write: Write = stdout.write;
  const channel = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      (write as (chunk: Buffer, done: (error?: Error | null) => void) => boolean).call(stdout, chunk, (error) =>
        callback(error),
      );
    },
  });
  // Console and the pipes from worker threads look `write` up at each call: they all end here.
  (stdout as { write: Write }).write = ((...args: Parameters<Write>) =>
    (stderr.write as (...a: unknown[]) => boolean)(...args)) as Write;
  guarded.set(stdout, channel);
  return {
    channel,
    release: () => {
      if (guarded.get(stdout) !== channel) return;
      guarded.delete(stdout);
      if (own) (stdout as { write: Write }).write = write;
      else delete (stdout as { write?: Write }).write;
    },
  };
}
