/**
 * Reads the JSON value out of a model's answer. Models behind plain chat APIs often wrap JSON in a code fence or a
 * sentence; this takes the fenced block if any, else the span from the first `{`/`[` to its matching bracket.
 * Returns `undefined` when no JSON value can be read.
 */
export function parseModelJson(text: string): { value: unknown } | undefined {
  const trimmed = text.trim();
  const direct = tryParse(trimmed);
  if (direct) return direct;
  const fence = /```(?:json|JSON)?\s*\n([\s\S]*?)```/.exec(trimmed);
  if (fence?.[1] !== undefined) {
    const fenced = tryParse(fence[1].trim());
    if (fenced) return fenced;
  }
  const span = firstBalancedSpan(trimmed);
  return span === undefined ? undefined : tryParse(span);
}

function tryParse(text: string): { value: unknown } | undefined {
  if (text === '') return undefined;
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return undefined;
  }
}

/** The first `{…}` or `[…]` span with balanced brackets, skipping brackets inside strings. */
function firstBalancedSpan(text: string): string | undefined {
  const start = text.search(/[{[]/);
  if (start === -1) return undefined;
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
