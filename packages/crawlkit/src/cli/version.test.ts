import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';

import { VERSION } from './version.js';

test('VERSION is the version of package.json (the build writes it there; a bump without a build is caught)', () => {
  const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  expect(VERSION).toBe(manifest.version);
});
