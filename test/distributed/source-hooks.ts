/** `node --import ./source-hooks.ts child.ts`: crawlkit from its TypeScript sources (see `test/helpers/source-hooks.ts`). */
import '../helpers/source-hooks.ts';
