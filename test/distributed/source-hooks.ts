/**
 * `node --import ./source-hooks.ts child.ts`: lets a child process run crawlkit from its TypeScript sources under
 * Node's type stripping (no build): `crawlkit` and `@crawlkit/<name>` resolve to `packages/<name>/src/index.ts`, and
 * the sources' NodeNext-style `./x.js` specifiers to `./x.ts`.
 */
import { registerHooks } from 'node:module';
import { pathToFileURL } from 'node:url';

const packages = new URL('../../packages/', import.meta.url);

function sourceEntry(name: string): string {
  return pathToFileURL(new URL(`${name}/src/index.ts`, packages).pathname).href;
}

registerHooks({
  resolve(specifier, context, nextResolve) {
    if (specifier === 'crawlkit') return { url: sourceEntry('crawlkit'), shortCircuit: true };
    const scoped = /^@crawlkit\/([a-z-]+)$/.exec(specifier);
    if (scoped && scoped[1] !== 'bench') return { url: sourceEntry(scoped[1]!), shortCircuit: true };
    try {
      return nextResolve(specifier, context);
    } catch (error) {
      if (specifier.startsWith('.') && specifier.endsWith('.js')) {
        return nextResolve(`${specifier.slice(0, -3)}.ts`, context);
      }
      throw error;
    }
  },
});
