// A Chromium started as crawlkit starts its own, with a DevTools port open: for `browser.wsEndpoint` (the suite's
// shared browser, and the option's own tests).
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

import { resolveChromiumPath } from '../../packages/fetcher/src/browser/chromium-path.ts';
import { destroyBrowser, launchBrowser, type LaunchedBrowser } from '../../packages/fetcher/src/browser/launch.ts';
import { ISOLATED_ARGS } from './scrape.ts';

export interface ListeningChromium {
  launched: LaunchedBrowser;
  /** `ws://127.0.0.1:<port>/devtools/browser/<id>`. */
  wsEndpoint: string;
  port: number;
  /** Kills it with its processes and removes its profile. */
  close(): Promise<void>;
}

/**
 * Launches Chromium (found as the product finds it: `CRAWLKIT_CHROMIUM`, then the usual paths) listening for DevTools
 * on `port` of 127.0.0.1 (0: any free port). Its own traffic goes to a closed port: pages get theirs through the
 * network gate of the fetcher that connects.
 */
export async function launchListening(port = 0): Promise<ListeningChromium> {
  const launched = await launchBrowser({
    executablePath: resolveChromiumPath(),
    args: [
      `--remote-debugging-port=${port}`,
      '--remote-debugging-address=127.0.0.1',
      '--proxy-server=http://127.0.0.1:9',
      '--proxy-bypass-list=<-loopback>',
      // As the browser tests launch theirs: names resolve only through the network gate.
      ...ISOLATED_ARGS,
    ],
    timeoutMs: 30_000,
  });
  // With a DevTools port open, Chromium outlives its pipe: it must not outlive this process, even when that is killed
  // (a vitest run stopped with SIGKILL or a CI timeout). Chromium leads its process group.
  spawn(
    'sh',
    [
      '-c',
      'while kill -0 "$1" 2>/dev/null && kill -0 "$2" 2>/dev/null; do sleep 1; done; kill -9 -"$2" 2>/dev/null; rm -rf "$3"',
      'ck-chromium-watchdog',
      String(process.pid),
      String(launched.pid),
      launched.userDataDir,
    ],
    { detached: true, stdio: 'ignore' },
  ).unref();
  try {
    return { launched, ...(await listeningOn(launched, port)), close: () => destroyBrowser(launched) };
  } catch (error) {
    await destroyBrowser(launched);
    throw error;
  }
}

async function listeningOn(launched: LaunchedBrowser, port: number): Promise<{ port: number; wsEndpoint: string }> {
  if (port === 0) {
    // With port 0, Chromium writes the port it took and the endpoint's path there (before the launch returns).
    const [listening, path] = (await readFile(join(launched.userDataDir, 'DevToolsActivePort'), 'utf8')).split('\n');
    return { port: Number(listening), wsEndpoint: `ws://127.0.0.1:${listening}${path}` };
  }
  // A port given is not written there: the endpoint is asked of it.
  const version = (await (await fetch(`http://127.0.0.1:${port}/json/version`)).json()) as Record<string, string>;
  return { port, wsEndpoint: version.webSocketDebuggerUrl! };
}
