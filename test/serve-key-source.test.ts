/**
 * A request with a wrong API key is told where this `crawlkit serve` took its keys from (the flag, the variable, the
 * file of keys, the settings file), not every place it could have: its sender then knows where to look for the one
 * to send. Upstream's "Unauthorized: Invalid token" comes first, the status stays 401, and no key's value is said.
 * Through raw HTTP and firecrawl-js, against the built command.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import Firecrawl from '@mendable/firecrawl-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ensureBuilt } from './cli-helpers.ts';
import { serveCli } from './helpers/serve-cli.ts';

const KEY = 'fc-key-source-0123456789';
const WRONG = 'fc-wrong-9876543210';
let dir: string;

beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'ck-key-source-'));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const serve = (args: string[], env: Record<string, string> = {}) => serveCli(dir, args, env);

const UPSTREAM =
  'Unauthorized: Invalid token: the API key sent was not accepted, it is not one of the keys this server';

/** The wrong key's answer, raw and through firecrawl-js: both carry the same words, 401, `UNAUTHORIZED`. */
async function wrongKey(url: string): Promise<string> {
  const raw = await fetch(`${url}/v2/crawl/active`, { headers: { authorization: `Bearer ${WRONG}` } });
  const body = (await raw.json()) as { code?: string; error: string };
  expect(raw.status).toBe(401);
  expect(body.code).toBe('UNAUTHORIZED');
  const refused = await new Firecrawl({ apiKey: WRONG, apiUrl: url }).getActiveCrawls().catch((e: unknown) => e);
  expect(refused).toMatchObject({ status: 401, message: body.error });
  expect(body.error.startsWith(UPSTREAM)).toBe(true);
  expect(body.error).not.toContain(KEY);
  expect(body.error).not.toContain(WRONG);
  return body.error.slice(UPSTREAM.length);
}

describe('a wrong key is told where the keys came from', () => {
  it('--api-key', async () => {
    const server = await serve(['--api-key', KEY]);
    try {
      expect(await wrongKey(server.url)).toBe(' was given by --api-key');
    } finally {
      await server.stop();
    }
  });

  it('CRAWLKIT_API_KEY', async () => {
    const server = await serve([], { CRAWLKIT_API_KEY: KEY });
    try {
      expect(await wrongKey(server.url)).toBe(' was given by the CRAWLKIT_API_KEY environment variable');
    } finally {
      await server.stop();
    }
  });

  it('CRAWLKIT_API_KEY_FILE', async () => {
    const secret = join(dir, 'api-keys');
    writeFileSync(secret, `${KEY}\n`);
    const server = await serve([], { CRAWLKIT_API_KEY_FILE: secret });
    try {
      // no path: anyone who reaches the server may send a wrong key
      expect(await wrongKey(server.url)).toBe(' was given by the file CRAWLKIT_API_KEY_FILE names');
    } finally {
      await server.stop();
    }
  });

  it('--config, and two sources at once', async () => {
    const config = join(dir, 'keys.json');
    writeFileSync(config, JSON.stringify({ apiKeys: [KEY] }));
    const server = await serve(['--config', config]);
    try {
      expect(await wrongKey(server.url)).toBe(
        ' was given by `apiKeys` of the settings file (--config, CRAWLKIT_CONFIG or ./crawlkit.config.json)',
      );
    } finally {
      await server.stop();
    }
    const both = await serve(['--api-key', KEY], { CRAWLKIT_API_KEY: 'fc-another-key' });
    try {
      expect(await wrongKey(both.url)).toBe(' was given by --api-key and the CRAWLKIT_API_KEY environment variable');
    } finally {
      await both.stop();
    }
  });
});
