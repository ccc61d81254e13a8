import { lazyModule } from '@crawlkit/options/lazy-module';

/**
 * warcio, loaded with the first WARC read (about 25 modules with pako and hash-wasm): only replay needs it. The
 * writer loads its record builders, which import warcio, the same way (`warc-writer.ts`).
 */
export const warcio = lazyModule(() => import('warcio'));
