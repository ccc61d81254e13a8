/**
 * Registers the resolution of the workspace's packages in a child process of the tests (`source-hooks.ts` and
 * `built-hooks.ts` call it): `crawlkit` and `@crawlkit/<name>` to `packages/<name>/<dir>/index.<ext>`, a subpath entry
 * `@crawlkit/<name>/<entry>` to `packages/<name>/<dir>/<entry>.<ext>`; on the sources, relative `./x.js` specifiers
 * (NodeNext style) to `./x.ts` when no `.js` file exists.
 */
import { registerHooks } from 'node:module';
import { pathToFileURL } from 'node:url';

const packages = new URL('../../packages/', import.meta.url);

export function registerPackageHooks(from: 'src' | 'dist'): void {
  const ext = from === 'src' ? 'ts' : 'js';
  const entry = (name: string, file = 'index') =>
    pathToFileURL(new URL(`${name}/${from}/${file}.${ext}`, packages).pathname).href;
  registerHooks({
    resolve(specifier, context, nextResolve) {
      if (specifier === 'crawlkit') return { url: entry('crawlkit'), shortCircuit: true };
      const scoped = /^@crawlkit\/([a-z-]+)(?:\/([a-z-]+))?$/.exec(specifier);
      if (scoped && scoped[1] !== 'bench') return { url: entry(scoped[1]!, scoped[2]), shortCircuit: true };
      try {
        return nextResolve(specifier, context);
      } catch (error) {
        if (from === 'src' && specifier.startsWith('.') && specifier.endsWith('.js')) {
          return nextResolve(`${specifier.slice(0, -3)}.ts`, context);
        }
        throw error;
      }
    },
  });
}
