import { createRequire } from 'node:module';

import type { FastifyServerOptions } from 'fastify';

/** Requires as Fastify does: its compilers are its dependencies, not the server's. */
const fastifyRequire = createRequire(createRequire(import.meta.url).resolve('fastify'));

type Factories = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;
type Build = (externalSchemas: unknown, options: unknown) => unknown;

/** The factory of the package `name` exports (a function that makes one), made at its first call. */
const loadedOnUse =
  (name: string): Build =>
  (externalSchemas, options) =>
    (fastifyRequire(name) as () => Build)()(externalSchemas, options);

/**
 * Fastify's own schema compilers (Ajv, fast-json-stringify), loaded when a route first declares a schema instead of
 * when the app is made: the routes validate their bodies with zod and declare none, and the two packages are ~110
 * modules of `crawlkit serve`'s start.
 */
export const lazySchemaCompilers = {
  buildValidator: loadedOnUse('@fastify/ajv-compiler'),
  buildSerializer: loadedOnUse('@fastify/fast-json-stringify-compiler'),
} as unknown as Factories;
