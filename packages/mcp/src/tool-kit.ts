/** What each group of tools is registered with: the engine, the session's calls, and how answers are made. */
import type { Admission } from '@crawlkit/server';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { CallOptions, Crawlkit } from 'crawlkit';

import type { AnswerShape } from './tool-result.js';

/** What every call of a session carries: the API key's tenant (HTTP), and the credit limit. */
export type SessionCall = Pick<CallOptions, 'tenant' | 'creditLimit'>;

export interface ToolKit {
  ck: Crawlkit;
  admission: Admission;
  session: SessionCall;
  /** Registers a tool whose calls are counted until they settle (`InFlight`). */
  tool: McpServer['registerTool'];
  /** A v2 answer as a tool result, within the answer budget. */
  result: (value: unknown, shape?: AnswerShape) => CallToolResult;
  /** A call's options: the session's, and the call's signal (the client went away). */
  call: (signal: AbortSignal) => CallOptions;
}
