export { startServer } from './server.js';
export type { CrawlkitServer } from './server.js';
export { isLoopbackHost } from './options.js';
export type { ServerOptions } from './options.js';
// What @crawlkit/mcp shares with the HTTP server: its keys, admission and options.
export { ApiKeys } from './auth.js';
export type { AuthResult } from './auth.js';
export { Admission } from './admission.js';
export { corsVerdict, originAllowed } from './cors.js';
export { hostAllowed, hostRefusal } from './host-check.js';
export type { CorsVerdict } from './cors.js';
export { resolveServerOptions } from './options.js';
