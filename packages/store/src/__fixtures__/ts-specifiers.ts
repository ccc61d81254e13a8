/**
 * `node --import ./ts-specifiers.ts child.ts`: lets a child process run the package's TypeScript sources directly
 * under Node's type stripping. The sources import siblings as `./x.js` (NodeNext style); this maps such a relative
 * specifier to `./x.ts` when no `.js` file exists.
 */
import { registerHooks } from 'node:module';

registerHooks({
  resolve(specifier, context, nextResolve) {
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
