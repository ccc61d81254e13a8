import { createHash, timingSafeEqual } from 'node:crypto';

/** An accepted request, with the tenant its key stands for (none when keys share their jobs, or keyless). */
export type AuthResult = { ok: true; tenant?: string } | { ok: false; error: string };

/** What a request without a usable `Authorization` header is told to send. */
const SEND_KEY = 'send the API key as `Authorization: Bearer <key>`';
/**
 * What a request with a key the server does not hold is told: upstream's words first (clients match them), then that
 * the key was not accepted and where the server's keys come from (`source`, the flag, variable or file of `crawlkit
 * serve`, never a key), so that the sender knows where to look for the one to send.
 */
function notAccepted(source: string): string {
  return `Unauthorized: Invalid token: the API key sent was not accepted, it is not one of the keys this server was given by ${source}`;
}

const digest = (value: string): Buffer => createHash('sha256').update(value).digest();

/**
 * The server's API keys and the v2 rules for presenting one (reference §1, §13.10): `Authorization: Bearer <key>`,
 * the scheme `Bearer` (any case) and nothing after the key. Each key is a tenant unless the keys share their jobs.
 */
export class ApiKeys {
  readonly #digests: Buffer[];
  readonly #share: boolean;
  readonly #notAccepted: string;

  /** `source`: where the keys came from, named to a request whose key is not among them (`apiKeysSource`). */
  constructor(keys: readonly string[], options: { share?: boolean; source?: string } = {}) {
    this.#digests = keys.map(digest);
    this.#share = options.share ?? false;
    this.#notAccepted = notAccepted(options.source ?? 'the `apiKeys` option');
  }

  /** False when the server runs keyless (loopback only): every request is accepted. */
  get required(): boolean {
    return this.#digests.length > 0;
  }

  /** `Authorization: Bearer <key>`; another scheme (`Basic`, `Token`, any word) is refused. */
  checkAuthorization(header: string | undefined): AuthResult {
    if (!this.required) return { ok: true };
    // Upstream's words first (clients match them), then what to send.
    if (header === undefined || header.trim() === '') return { ok: false, error: `Unauthorized: ${SEND_KEY}` };
    const [scheme, token, ...rest] = header.trim().split(/\s+/);
    if (!token) return { ok: false, error: `Unauthorized: Token missing: ${SEND_KEY}` };
    if (scheme!.toLowerCase() !== 'bearer' || rest.length > 0) return { ok: false, error: `Unauthorized: ${SEND_KEY}` };
    return this.#accept(token);
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
    for (const key of offered) {
      const accepted = this.#accept(key);
      if (accepted.ok) return accepted;
    }
    if (authorization !== undefined) return this.checkAuthorization(authorization);
    return { ok: false, error: offered.length > 0 ? this.#notAccepted : `Unauthorized: ${SEND_KEY}` };
  }

  #accept(token: string): AuthResult {
    const candidate = digest(token);
    // Every key is compared, in constant time, so the answer time says nothing about which one was close.
    let found = -1;
    this.#digests.forEach((key, index) => {
      if (timingSafeEqual(key, candidate)) found = index;
    });
    if (found < 0) return { ok: false, error: this.#notAccepted };
    // The tenant is derived from the key, never the key itself: it is stored with every job of the key.
    return this.#share ? { ok: true } : { ok: true, tenant: `key-${candidate.toString('hex').slice(0, 16)}` };
  }
}
