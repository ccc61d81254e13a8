import { lazyModule } from '@crawlkit/options/lazy-module';

/**
 * warcio, loaded with the first WARC read or written (about 25 modules with pako, hash-wasm and, for its Node
 * serializer, tempy): only `recordWarc` jobs and `crawlkit replay` need it.
 */
export const warcio = lazyModule(() => import('warcio'));

/** warcio's Node entry (`WARCSerializer`), for writing records. */
export const warcioNode = lazyModule(() => import('warcio/node'));
