/**
 * A child process for the OCR test, run under `network-trap.ts`: checks that the trap is loaded in this thread and
 * in a worker thread (a fetch is refused and logged in both), then reads the screenshot by OCR and prints its text.
 */
import { Worker } from 'node:worker_threads';

import { convertDocument, stopOcr } from '../index.js';
import { screenshotPng } from './writers.js';

await fetch('http://127.0.0.1:9/main').catch(() => undefined);
await new Promise<void>((resolve) => {
  // a worker from a URL, as tesseract.js starts its own (an `eval` worker skips the `--import` preloads)
  const code = "await fetch('http://127.0.0.1:9/worker').catch(() => undefined);";
  const worker = new Worker(new URL(`data:text/javascript,${encodeURIComponent(code)}`));
  worker.on('exit', () => resolve());
});
const converted = await convertDocument({ bytes: screenshotPng(), contentType: 'image/png' }, { images: true });
await stopOcr();
process.stdout.write(JSON.stringify({ markdown: converted.markdown }));
