/**
 * Bad input at every front door of `serve`, beyond the fields of each body (request-surface.test.ts): faults of the
 * whole request (bodies that are not one JSON object, ids that are not one or not this tenant's), the v1 routes and
 * the parse upload. Each answer is a 4xx in the v2 error shape, with a code of `ERROR_CODES` and a message naming the
 * field; never a 500 or a hang.
 */
import { beforeAll, describe, expect, it } from 'vitest';

import { problemOf, type ProbeAnswer } from './helpers/request-probe.ts';
import { OTHER_KEY, sentenceOf, useRequestSurface } from './helpers/request-surface.ts';
import type { ServeStack } from './helpers/serve.ts';

let stack: ServeStack;
let monitorId: string;
const { send, undo, ROUTES, seen } = useRequestSurface((surface) => ({ stack, monitorId } = surface));

/** A raw request whose answer must be a 4xx in the v2 error shape naming one of `names` (when given). */
interface Fault {
  label: string;
  method: string;
  path: string | (() => string);
  body?: string | Buffer;
  headers?: Record<string, string>;
  key?: string;
  names?: string[];
}

const POST_ROUTES = [
  '/v2/scrape',
  '/v2/crawl',
  '/v2/batch/scrape',
  '/v2/map',
  '/v2/search',
  '/v2/schedule',
  '/v2/monitor',
];
const FIRST_FIELD: Record<string, string> = {
  '/v2/batch/scrape': 'urls',
  '/v2/search': 'query',
  '/v2/schedule': 'targets',
  '/v2/monitor': 'name',
};
const good = (path: string) =>
  JSON.stringify(
    (
      {
        '/v2/batch/scrape': { urls: [stack.page('/')] },
        '/v2/search': { query: 'plane' },
        '/v2/schedule': ROUTES.schedule!.base(),
        '/v2/monitor': ROUTES['monitor create']!.base(),
      } as Record<string, unknown>
    )[path] ?? { url: stack.page('/') },
  );

function bodyFaults(): Fault[] {
  return POST_ROUTES.flatMap((path): Fault[] => {
    const field = FIRST_FIELD[path] ?? 'url';
    const text = good(path);
    return [
      { label: 'no body', method: 'POST', path, names: [field] },
      { label: 'empty object', method: 'POST', path, body: '{}', names: [field] },
      { label: 'truncated JSON', method: 'POST', path, body: text.slice(0, -3), names: ['JSON'] },
      { label: 'a JSON array', method: 'POST', path, body: `[${text}]`, names: ['object'] },
      { label: 'a JSON string', method: 'POST', path, body: '"https://example.com"', names: ['object'] },
      { label: 'null', method: 'POST', path, body: 'null', names: ['object'] },
      {
        label: 'nested 500 levels',
        method: 'POST',
        path,
        body: `${'['.repeat(500)}${']'.repeat(500)}`,
        names: ['nest'],
      },
      {
        label: '__proto__ key',
        method: 'POST',
        path,
        body: `{"__proto__":{"admin":true},${text.slice(1)}`,
        names: ['__proto__'],
      },
      {
        label: 'unknown key, duplicated',
        method: 'POST',
        path,
        body: `{"zz":1,"zz":2,${text.slice(1)}`,
        names: ['zz'],
      },
      {
        label: 'invalid UTF-8 in a field name',
        method: 'POST',
        path,
        body: Buffer.concat([Buffer.from('{"'), Buffer.from([0xff, 0xfe]), Buffer.from(`":1,${text.slice(1)}`)]),
        names: ['\ufffd'],
      },
      { label: 'gzip declared, not sent', method: 'POST', path, body: text, headers: { 'content-encoding': 'gzip' } },
      { label: 'a huge header', method: 'POST', path, body: text, headers: { 'x-filler': 'x'.repeat(40_000) } },
    ];
  });
}

function idFaults(): Fault[] {
  const kinds = ['/v2/crawl', '/v2/batch/scrape', '/v2/scrape', '/v2/schedule', '/v2/monitor'];
  return kinds
    .flatMap((prefix): Fault[] => [
      { label: 'not a UUID', method: 'GET', path: `${prefix}/not-a-uuid` },
      { label: 'a 10,000-character id', method: 'GET', path: `${prefix}/${'a'.repeat(10_000)}` },
      { label: 'an encoded NUL', method: 'GET', path: `${prefix}/%00abc` },
      { label: 'a bad percent-encoding', method: 'GET', path: `${prefix}/%E0%A4%A` },
      { label: "another tenant's", method: 'GET', path: () => `${prefix}/${ids[prefix]}`, key: OTHER_KEY },
      ...(prefix === '/v2/scrape'
        ? []
        : [
            {
              label: "another tenant's, deleted",
              method: 'DELETE',
              path: () => `${prefix}/${ids[prefix]}`,
              key: OTHER_KEY,
            },
          ]),
    ])
    .concat([
      { label: 'a crawl id as a scrape', method: 'GET', path: () => `/v2/scrape/${ids['/v2/crawl']}` },
      { label: 'a crawl id as a schedule', method: 'GET', path: () => `/v2/schedule/${ids['/v2/crawl']}` },
      { label: 'a schedule id as a monitor', method: 'GET', path: () => `/v2/monitor/${ids['/v2/schedule']}` },
      { label: 'a schedule id as a crawl', method: 'GET', path: () => `/v2/crawl/${ids['/v2/schedule']}` },
      {
        label: 'a monitor check that is not there',
        method: 'GET',
        path: () => `/v2/monitor/${ids['/v2/monitor']}/checks/nope`,
      },
      {
        label: 'status limit not a number',
        method: 'GET',
        path: () => `/v2/crawl/${ids['/v2/crawl']}?limit=abc`,
        names: ['limit'],
      },
      {
        label: 'status limit 1e309',
        method: 'GET',
        path: () => `/v2/crawl/${ids['/v2/crawl']}?limit=1e309`,
        names: ['limit'],
      },
      {
        label: 'status skip negative',
        method: 'GET',
        path: () => `/v2/crawl/${ids['/v2/crawl']}?skip=-1`,
        names: ['skip'],
      },
      {
        label: 'status skip fractional',
        method: 'GET',
        path: () => `/v2/batch/scrape/${ids['/v2/batch/scrape']}?skip=1.5`,
        names: ['skip'],
      },
      {
        label: 'changes limit 0',
        method: 'GET',
        path: () => `/v2/crawl/${ids['/v2/crawl']}/changes?limit=0`,
        names: ['limit'],
      },
      {
        label: 'checks limit x',
        method: 'GET',
        path: () => `/v2/monitor/${ids['/v2/monitor']}/checks?limit=x`,
        names: ['limit'],
      },
      {
        label: 'checks status bogus',
        method: 'GET',
        path: () => `/v2/monitor/${ids['/v2/monitor']}/checks/nope?status=bogus`,
      },
      { label: 'monitors limit -5', method: 'GET', path: '/v2/monitor?limit=-5', names: ['limit'] },
    ]);
}

const ids: Record<string, string> = {};

describe('faults of the whole request', () => {
  beforeAll(async () => {
    const idOf = (a: ProbeAnswer) => (a.body?.id ?? (a.body?.data as { id?: string } | undefined)?.id) as string;
    ids['/v2/crawl'] = idOf(await send('POST', '/v2/crawl', JSON.stringify({ url: stack.page('/'), limit: 1 })));
    ids['/v2/batch/scrape'] = idOf(await send('POST', '/v2/batch/scrape', good('/v2/batch/scrape')));
    const scraped = await send('POST', '/v2/scrape', good('/v2/scrape'));
    ids['/v2/scrape'] =
      (scraped.body?.data as { metadata?: { scrapeId?: string } } | undefined)?.metadata?.scrapeId ?? '';
    ids['/v2/schedule'] = idOf(await send('POST', '/v2/schedule', good('/v2/schedule')));
    ids['/v2/monitor'] = monitorId;
    for (const [kind, id] of Object.entries(ids)) expect(id, kind).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('a body that is not one JSON object, or not JSON, is a 4xx saying so', async () => {
    const problems: string[] = [];
    for (const fault of bodyFaults()) problems.push(...(await probe(fault)));
    expect(problems).toEqual([]);
  }, 120_000);

  it('an id that is not one, or not this tenant’s, or not this kind’s, is a 4xx', async () => {
    const problems: string[] = [];
    for (const fault of idFaults()) problems.push(...(await probe(fault)));
    expect(problems).toEqual([]);
  }, 120_000);
});

async function probe(fault: Fault): Promise<string[]> {
  const path = typeof fault.path === 'function' ? fault.path() : fault.path;
  const answer = await send(fault.method, path, fault.body, fault.headers, fault.key);
  const problem = problemOf(answer, fault.names, true);
  seen.push(`${fault.method} ${path.slice(0, 60)} (${fault.label}): ${answer.status} ${sentenceOf(answer)}`);
  return problem ? [`${fault.method} ${path.slice(0, 80)} (${fault.label}): ${problem}`] : [];
}

/** A multipart body of `parts` ([name, value, filename?]) with its Content-Type. */
function multipart(parts: [string, string, string?][], boundary = 'probe-boundary'): { body: string; type: string } {
  const body = parts
    .map(([name, value, filename]) => {
      const disposition = `form-data; name="${name}"${filename ? `; filename="${filename}"` : ''}`;
      const type = filename ? '\r\nContent-Type: text/html' : '';
      return `--${boundary}\r\nContent-Disposition: ${disposition}${type}\r\n\r\n${value}\r\n`;
    })
    .join('');
  return { body: `${body}--${boundary}--\r\n`, type: `multipart/form-data; boundary=${boundary}` };
}

describe('the v1 routes and the parse upload', () => {
  it('v1 bodies with bad values are 4xx in the error shape, never a 500', async () => {
    const url = stack.page('/');
    // v1's string formats are read as a list; extract and jsonOptions are read only beside their format.
    const lenient = new Set(['"formats":"markdown"', '"extract":"x"', '"jsonOptions":[]']);
    const bodies: [string, unknown][] = [
      ['/v1/scrape', { url: 42 }],
      ['/v1/scrape', { url, pageOptions: [] }],
      ['/v1/scrape', { url, formats: 'markdown' }],
      ['/v1/scrape', { url, formats: ['nope'] }],
      ['/v1/scrape', { url, timeout: -1 }],
      ['/v1/scrape', { url, extract: 'x' }],
      ['/v1/scrape', { url, jsonOptions: [] }],
      ['/v1/crawl', { url, limit: 'ten' }],
      ['/v1/crawl', { url, crawlerOptions: 'x' }],
      ['/v1/crawl', { url, scrapeOptions: [] }],
      ['/v1/crawl', { url, maxDepth: -3 }],
      ['/v1/crawl', { url, webhook: 7 }],
      ['/v1/map', { url, limit: 1e9 }],
      ['/v1/map', { url: null }],
      ['/v1/batch/scrape', { urls: 'x' }],
      ['/v1/batch/scrape', { urls: [url], formats: {} }],
      ['/v1/batch/scrape', []],
      ['/v1/scrape', 'https://example.com'],
    ];
    const problems: string[] = [];
    for (const [path, body] of bodies) {
      const answer = await send('POST', path, JSON.stringify(body));
      await undo({ ...ROUTES.crawl!, undo: path.includes('batch') ? 'batch' : 'crawl' }, answer);
      const mustRefuse = ![...lenient].some((text) => JSON.stringify(body).includes(text));
      const problem = problemOf(answer, undefined, mustRefuse);
      seen.push(`POST ${path} ${JSON.stringify(body).slice(0, 80)}: ${answer.status} ${sentenceOf(answer)}`);
      if (problem) problems.push(`POST ${path} ${JSON.stringify(body)}: ${problem}`);
    }
    expect(problems).toEqual([]);
  });

  it('a parse upload without a file, with bad options or not multipart is a 4xx saying what to send', async () => {
    const html = '<html><body><main><h1>Parsed</h1><p>A page uploaded to parse.</p></main></body></html>';
    const withOptions = (options: string) =>
      multipart([
        ['file', html, 'a.html'],
        ['options', options],
      ]);
    const uploads: [string, { body: string; type: string }, string[]][] = [
      ['no file part', multipart([['options', '{}']]), ['file']],
      ['options not JSON', withOptions('{oops'), ['options']],
      ['options with a bad format', withOptions('{"formats":["nope"]}'), ['formats']],
      ['options an array', withOptions('[]'), ['object']],
      [
        'two files',
        multipart([
          ['file', html, 'a.html'],
          ['file', html, 'b.html'],
        ]),
        ['file'],
      ],
      ['a JSON body', { body: '{"url":"https://example.com"}', type: 'application/json' }, ['multipart']],
      ['no boundary', { body: 'x', type: 'multipart/form-data' }, ['multipart']],
      ['a truncated upload', { body: withOptions('{}').body.slice(0, 60), type: multipart([]).type }, ['multipart']],
    ];
    const problems: string[] = [];
    for (const [label, upload, names] of uploads) {
      const answer = await send('POST', '/v2/parse', upload.body, { 'content-type': upload.type });
      seen.push(`POST /v2/parse (${label}): ${answer.status} ${sentenceOf(answer)}`);
      const problem = problemOf(answer, names, true);
      if (problem) problems.push(`parse (${label}): ${problem}`);
    }
    expect(problems).toEqual([]);
  });
});
