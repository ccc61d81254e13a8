export { createMcpServer, MCP_SERVER_VERSION } from './mcp-server.js';
export { serveMcpStdio } from './stdio.js';
export type { McpStdioOptions } from './stdio.js';
export type { ToolAnswers, ToolSettings } from './tools.js';
export type { ParseFiles } from './parse-tool.js';
export { startMcpHttp } from './http.js';
export type { McpHttpOptions, McpHttpServer } from './http.js';
export { scrapeOptionsOf } from './tool-params.js';
export { isLoopbackHost } from '@crawlkit/server';
