import { createHash, timingSafeEqual } from 'node:crypto';

export type AuthResult = { ok: true } | { ok: false; error: string };

const digest = (value: string): Buffer => createHash('sha256').update(value).digest();

/** The server's API keys and the v2 rules for presenting one (reference §1, §13.10). */
export class ApiKeys {
  readonly #digests: Buffer[];

  constructor(keys: readonly string[]) {
    this.#digests = keys.map(digest);
  }

  /** False when the server runs keyless (loopback only): every request is accepted. */
  get required(): boolean {
    return this.#digests.length > 0;
  }

  /** `Authorization: Bearer <key>`: the token is the second whitespace-separated word of the header. */
  checkAuthorization(header: string | undefined): AuthResult {
    if (!this.required) return { ok: true };
    if (header === undefined || header.trim() === '') return { ok: false, error: 'Unauthorized' };
    const token = header.trim().split(/\s+/)[1];
    if (!token) return { ok: false, error: 'Unauthorized: Token missing' };
    return this.#matches(token) ? { ok: true } : { ok: false, error: 'Unauthorized: Invalid token' };
  }

  /**
   * A WebSocket presents the key as its subprotocol (`new WebSocket(url, key)`, as the SDKs do) or in
   * `Authorization`.
   */
  checkSocket(protocols: string | undefined, authorization: string | undefined): AuthResult {
    if (!this.required) return { ok: true };
    const offered = (protocols ?? '')
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean);
    if (offered.some((key) => this.#matches(key))) return { ok: true };
    if (authorization !== undefined) return this.checkAuthorization(authorization);
    return { ok: false, error: offered.length > 0 ? 'Unauthorized: Invalid token' : 'Unauthorized' };
  }

  #matches(token: string): boolean {
    const candidate = digest(token);
    // Every key is compared, in constant time, so the answer time says nothing about which one was close.
    let found = false;
    for (const key of this.#digests) found = timingSafeEqual(key, candidate) || found;
    return found;
  }
}
