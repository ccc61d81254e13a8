// Child process: peak memory of one conversion. Usage: node markdown-memory.ts <crawlkit|turndown> <file>
// Prints JSON { inputBytes, baselineRss, peakRss, outputChars }. RSS is sampled every millisecond by a worker
// thread while the main thread converts, so the peak is the conversion's own.
import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';

import { htmlToMarkdown } from '@crawlkit/extractor';
import TurndownService from 'turndown';
import { gfm } from 'turndown-plugin-gfm';

import { syntheticPage } from './markdown-synthetic.ts';

const [which, file] = process.argv.slice(2);
if (!file || (which !== 'crawlkit' && which !== 'turndown'))
  throw new Error('usage: markdown-memory.ts <crawlkit|turndown> <file>');

const sampler = `
const { parentPort } = require('node:worker_threads');
let peak = 0;
const timer = setInterval(() => { peak = Math.max(peak, process.memoryUsage.rss()); }, 1);
parentPort.on('message', (m) => {
  if (m === 'reset') { peak = process.memoryUsage.rss(); parentPort.postMessage('ready'); }
  else { clearInterval(timer); parentPort.postMessage(Math.max(peak, process.memoryUsage.rss())); }
});
`;

const input = readFileSync(file).toString('utf8');
const inputBytes = Buffer.byteLength(input);
const convert =
  which === 'crawlkit'
    ? (html: string) => htmlToMarkdown(html)
    : (() => {
        const td = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
        td.use(gfm);
        return (html: string) => td.turndown(html);
      })();
// Warm up as a running crawler is: code compiled and the young generation at its working size. A forced full GC
// right before measuring would shrink the young generation and count its regrowth as the conversion's memory.
const warmUp = syntheticPage(1_000_000, 7);
for (let i = 0; i < 3; i++) convert(warmUp);

const worker = new Worker(sampler, { eval: true });
const message = (): Promise<unknown> => new Promise((resolve) => worker.once('message', resolve));
worker.postMessage('reset');
await message();
const baselineRss = process.memoryUsage.rss();
const output = convert(input);
worker.postMessage('stop');
const peakRss = (await message()) as number;
await worker.terminate();
console.log(JSON.stringify({ inputBytes, baselineRss, peakRss, outputChars: output.length }));
