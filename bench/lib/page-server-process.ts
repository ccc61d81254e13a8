// The bench page server (`page-server.ts`) in a child process of its own, so that serving the pages costs the
// measured process nothing: its main thread, which a scrape's fetch runs on, does not also write the responses, and
// its heap does not hold the pages.
//
//   const server = await startPageServerProcess(pages);   // forks this file; close() ends the child
import { fork } from 'node:child_process';

import { startPageServer, type PageServer } from './page-server.ts';

/** Serves `pages` (path → HTML) as `startPageServer` does, from a child process. */
export async function startPageServerProcess(pages: ReadonlyMap<string, string>): Promise<PageServer> {
  const child = fork(import.meta.filename, [], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    serialization: 'advanced',
  });
  // Sent outside the closures below: a closure naming `pages` would keep them in this heap as long as `close` lives.
  child.send({ pages: [...pages] });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('message', (m: { url: string }) => resolve(m.url));
    child.once('exit', (code) => reject(new Error(`page server process exited (${code})`)));
  });
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill();
      }),
  };
}

if (process.send && import.meta.filename === process.argv[1]) {
  process.once('message', (m: { pages: [string, string][] }) => {
    void startPageServer(new Map(m.pages)).then((server) => process.send!({ url: server.url }));
  });
}
