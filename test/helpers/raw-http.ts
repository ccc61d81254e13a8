/** One HTTP request with full control of the bytes and headers (`Host` included), for the server tests. */
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';

export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  /** The JSON body (`{}` for an empty one, as a 204 has). */
  body: Record<string, unknown>;
}

export function call(
  base: string,
  method: string,
  path: string,
  options: { body?: unknown; raw?: string | Buffer; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const payload = options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  const headers: Record<string, string> = { ...options.headers };
  if (payload !== undefined) {
    headers['content-type'] ??= 'application/json';
    headers['content-length'] = String(Buffer.byteLength(payload));
  }
  return new Promise((resolve, reject) => {
    const req = httpRequest(new URL(path, base), { method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        try {
          const body = text === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
        } catch (error) {
          reject(new Error(`not JSON (${res.statusCode}): ${text.slice(0, 200)}`, { cause: error }));
        }
      });
    });
    req.on('error', reject);
    req.end(payload);
  });
}
