// The engine runtime the scrape pipeline's tests run stages on: a memory store, the HTTP engine, a quiet event bus.
import { EventBus } from '../../event-bus.js';
import { CrawlkitEmitter } from '../../events.js';
import { silentLogger } from '../../logger.js';
import { resolveOptions, type CrawlkitOptions } from '../../options.js';
import { createRuntime, type Runtime } from '../../runtime.js';
import { ScrapeSlots } from '../../scrape-slots.js';

/** `events`: where the bus emits (its `warning`s, say); none listens by default. */
export function scrapeTestRuntime(options: CrawlkitOptions = {}, events = new CrawlkitEmitter()): Promise<Runtime> {
  const raw: CrawlkitOptions = { ...(options.storeDir ? {} : { store: 'memory' }), engine: 'http', ...options };
  return createRuntime({
    raw,
    options: resolveOptions(raw),
    queue: new ScrapeSlots(2),
    bus: new EventBus(events, silentLogger),
  });
}
