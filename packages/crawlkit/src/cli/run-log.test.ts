import { PassThrough } from 'node:stream';

import { describe, expect, it } from 'vitest';

import { runLogger } from './run-log.js';

function stream(): { out: PassThrough; lines: () => string[] } {
  const out = new PassThrough();
  let text = '';
  out.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return { out, lines: () => text.split('\n').filter(Boolean) };
}

describe('runLogger (the lines of serve and worker)', () => {
  it('text: "<ISO time> <level> <message>", one line per event, its fields left out; debug not written', () => {
    const { out, lines } = stream();
    const log = runLogger(out);
    log.info('POST /v2/scrape 200 41 ms 127.0.0.1', { method: 'POST', status: 200 });
    log.error('boom\nsecond line %s', 'x');
    log.debug('GET /health 200');
    expect(lines()).toEqual([
      expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z info POST \/v2\/scrape 200 41 ms 127\.0\.0\.1$/),
      expect.stringMatching(/Z error boom second line x$/),
    ]);
  });

  it('json: one object a line, time, level and msg first, then the fields (which cannot replace them)', () => {
    const { out, lines } = stream();
    const log = runLogger(out, { format: 'json' });
    log.warn('GET /ready 503 2 ms 127.0.0.1 STORE_FULL', { status: 503, code: 'STORE_FULL', level: 'x', msg: 'y' });
    const [entry] = lines().map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(Object.keys(entry!)).toEqual(['time', 'level', 'msg', 'status', 'code']);
    expect(entry).toMatchObject({ level: 'warn', msg: 'GET /ready 503 2 ms 127.0.0.1 STORE_FULL', code: 'STORE_FULL' });
    expect(Date.parse(entry!.time as string)).not.toBeNaN();
  });

  it('quiet: warnings and errors only', () => {
    const { out, lines } = stream();
    const log = runLogger(out, { quiet: true });
    log.info('a request');
    log.warn('a warning');
    log.error('an error');
    expect(lines().map((l) => l.split(' ').slice(1).join(' '))).toEqual(['warn a warning', 'error an error']);
  });
});
