import { z } from 'zod';

/** An HTTP field name: a token of RFC 9110 (§5.1, §5.6.2). */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** The first character a field value cannot carry (RFC 9110 §5.5): a control other than tab, or one past Latin-1. */
function badCharacter(value: string): string | undefined {
  for (const char of value) {
    const code = char.codePointAt(0)!;
    if ((code < 0x20 && char !== '\t') || code === 0x7f || code > 0xff) return char;
  }
  return undefined;
}

/**
 * Headers that frame the message on the wire: the HTTP client writes them for each request, from its body and its
 * connection, and refuses them from the caller (undici: "invalid transfer-encoding header", "expect header not
 * supported"), or sends a `content-length` that does not match the body, which the request then fails on.
 */
const FRAMING = new Set(['content-length', 'transfer-encoding', 'keep-alive', 'upgrade', 'expect']);

/** Why a header value cannot be sent, and what to send instead; undefined for a value that can. */
function valueProblem(value: string): string | undefined {
  const bad = badCharacter(value);
  if (bad === undefined) return undefined;
  if (bad === '\n' || bad === '\r') {
    return `holds a line break (${JSON.stringify(bad).slice(1, -1)}), and a header value is one line: send it without CR or LF (join its lines with a space)`;
  }
  const code = `U+${bad.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
  const what = bad.codePointAt(0)! > 0xff ? 'a character past Latin-1' : 'a control character';
  return `holds ${what} (${code}), which HTTP cannot carry: send printable ASCII (percent-encode the rest, as encodeURIComponent does)`;
}

/**
 * Request headers (`headers`, `webhook.headers`): the one home of what a header may be, so that every front door
 * (API, CLI, serve) refuses a name or value HTTP cannot carry before any fetch, saying why; the HTTP client's own
 * refusal ("invalid x-a header") said neither. `what` names them in the message (`header`, `webhook header`).
 */
export function headersSchema(what: string) {
  return z.record(z.string(), z.string()).superRefine((headers, ctx) => {
    for (const [name, value] of Object.entries(headers)) {
      if (!TOKEN.test(name)) {
        ctx.addIssue({
          code: 'custom',
          path: [name],
          message:
            `The ${what} name ${JSON.stringify(name)} is not a valid HTTP header name: use letters, digits and ` +
            "!#$%&'*+-.^_`|~ only (no spaces, colons or line breaks)",
        });
        continue;
      }
      if (FRAMING.has(name.toLowerCase())) {
        ctx.addIssue({
          code: 'custom',
          path: [name],
          message:
            `The ${what} ${name} cannot be set: the HTTP client writes it for each request (it frames the body and ` +
            'the connection), so leave it out',
        });
        continue;
      }
      const problem = valueProblem(value);
      if (problem) ctx.addIssue({ code: 'custom', path: [name], message: `The ${what} ${name}'s value ${problem}` });
    }
  });
}
