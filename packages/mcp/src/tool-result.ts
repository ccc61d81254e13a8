/** A v2 answer as an MCP tool result. */
import { readCaptureUrl } from '@crawlkit/actions';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { answerInOperatorWords } from 'crawlkit';

import { cutToBudget, DEFAULT_ANSWER_CHARS, type ReadFrom } from './answer-budget.js';

type Content = CallToolResult['content'][number];

/** How a tool's answer is kept short. */
export interface AnswerShape extends ReadFrom {
  /** Characters of JSON text at most: longer strings and lists are cut. @default DEFAULT_ANSWER_CHARS */
  budget?: number;
}

/**
 * A v2 answer as a tool result: its JSON as text; a v2 error is the tool's error. Screenshots and PDFs (`data:` URLs:
 * a page's screenshot, its actions' screenshots and PDFs) follow the JSON as image and resource content, each named
 * in the JSON by its place, so that a model reads the image instead of its base64 (a full-page screenshot is
 * megabytes of text). A text or list longer than the budget allows is cut, with a note saying how to read on. The
 * engine options its error and warnings name are told as the MCP server's (`crawlkit mcp` flags): an agent cannot
 * set them.
 */
export function toolResult(answer: unknown, shape: AnswerShape = {}): CallToolResult {
  const value = typeof answer === 'object' && answer !== null ? answerInOperatorWords(answer, 'mcp') : answer;
  const failed = typeof value === 'object' && value !== null && (value as { success?: unknown }).success === false;
  const files: Content[] = [];
  const indent = 2;
  let text = JSON.stringify(
    value,
    (_key, field: unknown) => {
      if (typeof field !== 'string' || !field.startsWith('data:')) return field;
      const capture = readCaptureUrl(field);
      if (!capture) return field;
      const { mimeType, base64: data } = capture;
      files.push(
        mimeType.startsWith('image/')
          ? { type: 'image', mimeType, data }
          : {
              type: 'resource',
              resource: { uri: `crawlkit://attachment/${files.length + 1}.pdf`, mimeType, blob: data },
            },
      );
      return `(${mimeType} attachment ${files.length}, after this JSON)`;
    },
    indent,
  );
  const budget = shape.budget ?? DEFAULT_ANSWER_CHARS;
  if (text.length > budget) {
    text = JSON.stringify(cutToBudget(JSON.parse(text) as unknown, budget, shape), null, indent);
  }
  return { content: [{ type: 'text', text }, ...files], ...(failed ? { isError: true } : {}) };
}
