import { afterAll, beforeAll } from 'vitest';

import { startFixtureServer, type FixtureServer } from '../../../../../fixtures/server.ts';
import { isFetchError, type FetchError } from '../../errors.js';
import { HttpEngine } from '../http-engine.js';

/** The error a fetch rejects with; fails the test when it resolves or rejects with something else. */
export async function failure(promise: Promise<unknown>): Promise<FetchError> {
  try {
    await promise;
  } catch (error) {
    if (isFetchError(error)) return error;
    throw error;
  }
  throw new Error('expected the fetch to fail');
}

/**
 * Registers a `beforeAll` that starts the fixture site and a default `HttpEngine`, and an `afterAll` that closes both.
 * Read them inside tests and hooks.
 */
export function useHttpSite(): { readonly server: FixtureServer; readonly engine: HttpEngine } {
  let server: FixtureServer | undefined;
  let engine: HttpEngine | undefined;
  beforeAll(async () => {
    server = await startFixtureServer();
    engine = new HttpEngine();
  });
  afterAll(async () => {
    await engine?.close();
    await server?.close();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('useHttpSite: read before beforeAll ran.');
    return value;
  };
  return {
    get server() {
      return started(server);
    },
    get engine() {
      return started(engine);
    },
  };
}
