/**
 * A vitest setup file of the projects whose files share a process: the process holds the extraction pool of the
 * default settings for its whole life, as a long-lived application holding an engine does. Engines of those settings
 * share the process's pool (`ExtractionPool.acquire`), and its last release stops its threads: without this hold,
 * every engine a test opened and closed started its threads again, 0.3 s of CPU and 1.1 s of waiting each (5 engines
 * in a row, one page each: 290 ms of CPU and 1,150 ms an engine without it, 17 ms and 62 ms with it). Engines of other
 * settings (`workers: { size: 0 }`, a smaller `maxMemoryMb`) keep pools of their own, started and stopped with them.
 */
import { ExtractionPool } from '../../packages/crawlkit/src/extraction/pool.ts';
import { resolveOptions } from '../../packages/crawlkit/src/options.ts';

const HELD = Symbol.for('crawlkit.test.heldExtractionPool');
const held = globalThis as { [HELD]?: ExtractionPool };

// Setup files run before each test file; the hold is taken once a process.
held[HELD] ??= ExtractionPool.acquire(resolveOptions({}).workers);
