export { startServer } from './server.js';
export type { CrawlkitServer } from './server.js';
export { isLoopbackHost } from './options.js';
export type { ServerOptions } from './options.js';
