/** Arguments a tool's schema refuses, answered in the v2 error shape as every other refusal. */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

/** The SDK's private check of a call's arguments (`McpServer.validateToolInput`). */
type ValidateInput = (tool: { inputSchema?: z.ZodType }, args: unknown, name: string) => Promise<unknown>;

/** `limit`, `formats[0]`, `scrapeOptions.formats`: where an issue is, as an agent writes it. */
function pathOf(path: readonly PropertyKey[]): string {
  return path
    .map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))
    .join('')
    .replace(/^\./, '');
}

/** The v2 error for arguments `schema` refuses: each issue with the argument it is about. */
export function badArguments(name: string, issues: readonly z.core.$ZodIssue[]): object {
  const told = issues.map((issue) => {
    const path = pathOf(issue.path);
    return path ? `\`${path}\`: ${issue.message}` : issue.message;
  });
  return {
    success: false,
    code: 'BAD_REQUEST',
    error: `Invalid arguments for ${name}: ${told.join('; ')}. See the tool's input schema for each argument.`,
    details: issues,
  };
}

/**
 * Makes `server` answer arguments that a tool's input schema refuses with the v2 error JSON (`BAD_REQUEST`, each
 * issue named by its argument) as a tool error. The SDK checks them before the tool runs and answers its own plain
 * text ("MCP error -32602: Input validation error: …"), which is neither the v2 shape the other refusals have nor
 * parseable as JSON by an agent that reads `code`. The check is the SDK's private method, so an SDK without it keeps
 * its own answer.
 */
export function answerBadArgumentsAsV2(server: McpServer): void {
  const internals = server as unknown as { validateToolInput?: ValidateInput };
  const validate = internals.validateToolInput?.bind(server);
  if (typeof validate !== 'function') return;
  internals.validateToolInput = async (tool, args, name) => {
    try {
      return await validate(tool, args, name);
    } catch (error) {
      const parsed = tool.inputSchema ? await z.safeParseAsync(tool.inputSchema, args ?? {}) : undefined;
      if (!parsed || parsed.success) throw error;
      // The SDK answers a thrown error's message as the tool error's text.
      throw new Error(JSON.stringify(badArguments(name, parsed.error.issues), null, 2), { cause: error });
    }
  };
}
