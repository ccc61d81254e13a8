/** Reasoning models served locally (DeepSeek-R1, Qwen3, …) often put their thinking in the answer text. */
const THINKING = /<(think|thinking|reasoning)>[\s\S]*?<\/\1>/gi;

/** The answer without `<think>…</think>` blocks. */
export function stripReasoning(text: string): string {
  return text.replace(THINKING, '').trim();
}

/** Tries this many `{`/`[` starts before giving up on a long chatty answer. */
const MAX_SPANS = 20;

/**
 * Reads the JSON value out of a model's answer. Models behind plain chat APIs often wrap JSON in a code fence or a
 * sentence, or think aloud first; this drops thinking blocks, then takes the whole text, else a fenced block, else
 * the first `{…}`/`[…]` span with balanced brackets that parses. Returns `undefined` when no JSON value can be read.
 */
export function parseModelJson(text: string): { value: unknown } | undefined {
  const trimmed = stripReasoning(text);
  const direct = tryParse(trimmed);
  if (direct) return direct;
  const fence = /```(?:json|JSON)?\s*\n([\s\S]*?)```/.exec(trimmed);
  if (fence?.[1] !== undefined) {
    const fenced = tryParse(fence[1].trim());
    if (fenced) return fenced;
  }
  let from = 0;
  for (let attempt = 0; attempt < MAX_SPANS; attempt++) {
    const start = trimmed.slice(from).search(/[{[]/);
    if (start === -1) return undefined;
    const span = balancedSpan(trimmed, from + start);
    const parsed = span === undefined ? undefined : tryParse(span);
    if (parsed) return parsed;
    from += start + 1;
  }
  return undefined;
}

function tryParse(text: string): { value: unknown } | undefined {
  if (text === '') return undefined;
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return undefined;
  }
}

/** The `{…}` or `[…]` span opening at `start`, with balanced brackets, skipping brackets inside strings. */
function balancedSpan(text: string, start: number): string | undefined {
  const stack: string[] = [];
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const ch = text[i]!;
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    else if (ch === '{' || ch === '[') stack.push(ch === '{' ? '}' : ']');
    else if (ch === '}' || ch === ']') {
      if (stack.pop() !== ch) return undefined;
      if (stack.length === 0) return text.slice(start, i + 1);
    }
  }
  return undefined;
}
