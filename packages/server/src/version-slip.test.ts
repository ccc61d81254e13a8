import { describe, expect, it } from 'vitest';

import { versionSlip } from './version-slip.js';

/** The methods of a few of the server's routes, as `RouteMethods.of` tells them. */
const ROUTES: Record<string, string[]> = { '/v2/scrape': ['POST'], '/v2/team/credit-usage': ['GET'] };
const methodsOf = (path: string) => ROUTES[path] ?? [];

describe('versionSlip', () => {
  it('finds the route of a path without its version, and of one with the version twice', () => {
    expect(versionSlip('/team/credit-usage?x=1', methodsOf)).toEqual({
      kind: 'missing',
      path: '/v2/team/credit-usage',
      methods: ['GET'],
    });
    expect(versionSlip('/v2/v2/scrape', methodsOf)).toEqual({ kind: 'doubled', path: '/v2/scrape', methods: ['POST'] });
    expect(versionSlip('/v1/v2/scrape', methodsOf)).toMatchObject({ kind: 'doubled', path: '/v2/scrape' });
  });

  it('finds nothing for a versioned path, the root, or a path that has no route either way', () => {
    for (const path of ['/v2/nothing', '/v1/scrape', '/', '/favicon.ico', '/v2/v2']) {
      expect(versionSlip(path, methodsOf)).toBeUndefined();
    }
  });
});
