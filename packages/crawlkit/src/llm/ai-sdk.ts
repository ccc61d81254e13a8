import { lazyModule } from '@crawlkit/options/lazy-module';

/**
 * The AI SDK (`ai`, its gateway and providers' utilities), loaded with the first model call: scrapes without LLM
 * formats, and searches without an embedding model, never need it.
 */
export const aiSdk = lazyModule(() => import('ai'));
