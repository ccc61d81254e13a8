/**
 * Arguments a tool's schema refuses, answered in the v2 error shape as every other refusal; arguments it does not
 * know, told in the answer.
 */
import { isObject } from '@crawlkit/options';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

/** The SDK's private check of a call's arguments (`McpServer.validateToolInput`). */
type ValidateInput = (tool: { inputSchema?: z.ZodType }, args: unknown, name: string) => Promise<unknown>;

/** The names a call gave that its tool does not take, by the arguments object its handler gets. */
const unknownOf = new WeakMap<object, string[]>();

/** The top-level names of `args` that `schema` (an object schema) does not take. */
function unknownNames(schema: z.ZodType | undefined, args: unknown): string[] {
  const shape = (schema as { shape?: unknown } | undefined)?.shape;
  if (!isObject(shape) || !isObject(args)) return [];
  return Object.keys(args).filter((name) => !(name in shape));
}

/**
 * `handler`, its answer ending in a note naming the arguments it was given that its tool does not take. The SDK drops
 * them without a word (as firecrawl-mcp does), so a misspelt `limit` ran a crawl to the default 10,000 pages.
 */
export function tellingUnknownArguments<A extends unknown[]>(
  handler: (...args: A) => Promise<CallToolResult>,
): (...args: A) => Promise<CallToolResult> {
  return async (...args) => {
    const result = await handler(...args);
    const unknown = isObject(args[0]) ? unknownOf.get(args[0]) : undefined;
    if (!unknown) return result;
    const names = unknown.map((name) => `\`${name}\``).join(', ');
    const text = `Ignored ${names}: not an argument of this tool, so the call ran without it (check the spelling against the tool's input schema).`;
    return { ...result, content: [...result.content, { type: 'text', text }] };
  };
}

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
 * parseable as JSON by an agent that reads `code`. Names the schema does not take are kept for
 * `tellingUnknownArguments`. The check is the SDK's private method, so an SDK without it keeps its own answer.
 */
export function answerBadArgumentsAsV2(server: McpServer): void {
  const internals = server as unknown as { validateToolInput?: ValidateInput };
  const validate = internals.validateToolInput?.bind(server);
  if (typeof validate !== 'function') return;
  internals.validateToolInput = async (tool, args, name) => {
    try {
      const parsed = await validate(tool, args, name);
      const unknown = unknownNames(tool.inputSchema, args);
      if (unknown.length > 0 && isObject(parsed)) unknownOf.set(parsed, unknown);
      return parsed;
    } catch (error) {
      const parsed = tool.inputSchema ? await z.safeParseAsync(tool.inputSchema, args ?? {}) : undefined;
      if (!parsed || parsed.success) throw error;
      // The SDK answers a thrown error's message as the tool error's text.
      throw new Error(JSON.stringify(badArguments(name, parsed.error.issues), null, 2), { cause: error });
    }
  };
}
