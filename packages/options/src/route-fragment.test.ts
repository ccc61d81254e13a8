import { describe, expect, it } from 'vitest';

import { isRouteFragment } from './route-fragment.js';

describe('isRouteFragment', () => {
  it('takes #/x, hash-bangs and #segment/x for routes, anchors for places in a page', () => {
    const routes = ['#/a', '#!/a', '#!a', '#docs/let', '#v2.1/api', '#/'];
    const anchors = ['#top', '#section-2', '#', '', '#a b/c', 'x#/a'];
    expect(routes.filter(isRouteFragment)).toEqual(routes);
    expect(anchors.filter(isRouteFragment)).toEqual([]);
  });
});
