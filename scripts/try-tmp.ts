import { startFixtureServer } from '../fixtures/server.ts';
import { startLlmServer } from '../fixtures/llm-server.ts';
const site = await startFixtureServer();
const llm = await startLlmServer();
console.log(JSON.stringify({ site: site.url, llm: llm.url }));
process.on('SIGTERM', async () => { await site.close(); await llm.close(); process.exit(0); });
setInterval(() => {}, 1000);
