import { describe, expect, it } from 'vitest';

import { envProxyFor } from './env-proxy.js';

const P = 'http://proxy.corp:3128';

describe("envProxyFor: Node's rule for its own fetch", () => {
  it('takes the proxy of the scheme only under NODE_USE_ENV_PROXY=1', () => {
    expect(envProxyFor('https://a.example/', { HTTPS_PROXY: P })).toBeUndefined();
    expect(envProxyFor('https://a.example/', { NODE_USE_ENV_PROXY: '1', HTTPS_PROXY: P })).toBe(P);
    expect(envProxyFor('http://a.example/', { NODE_USE_ENV_PROXY: '1', HTTPS_PROXY: P })).toBeUndefined();
    expect(envProxyFor('http://a.example/', { NODE_USE_ENV_PROXY: '1', http_proxy: P })).toBe(P);
  });

  it('goes direct to a host NO_PROXY names', () => {
    const env = {
      NODE_USE_ENV_PROXY: '1',
      HTTP_PROXY: P,
      NO_PROXY: 'localhost, .corp.test,*.lan ,10.0.0.1:8080,[::1]',
    };
    const via = (url: string) => envProxyFor(url, env);
    expect(via('http://localhost:3000/')).toBeUndefined();
    expect(via('http://wiki.corp.test/')).toBeUndefined();
    expect(via('http://corp.test/')).toBeUndefined();
    expect(via('http://nas.lan/')).toBeUndefined();
    expect(via('http://10.0.0.1:8080/')).toBeUndefined();
    expect(via('http://10.0.0.1/')).toBe(P);
    expect(via('http://[::1]:9/')).toBeUndefined();
    expect(via('http://notcorp.test/')).toBe(P);
    expect(envProxyFor('http://a.example/', { ...env, NO_PROXY: '*' })).toBeUndefined();
  });
});
