import { proxyName } from './proxy-errors.js';

/** Proxy servers by use (the `proxies` field of `FetcherOptions`). */
export interface ProxyConfig {
  /**
   * Proxies for `proxy: 'basic'` (and the first attempt of `'auto'`), used in rotation: `http://user:pass@host:port`.
   * @default [] (direct connections)
   */
  basic?: string[];
  /**
   * Proxies for `proxy: 'stealth'` and the stealth retry of `'auto'`, in rotation. Without any, stealth requests use
   * the basic proxies (or go direct) with the browser's fingerprint evasions.
   * @default []
   */
  stealth?: string[];
  /**
   * Proxies by ISO 3166-1 alpha-2 country code (`{ DE: [...] }`), used for requests whose `location.country`
   * matches, whatever the proxy mode.
   * @default {}
   */
  byCountry?: Record<string, string[]>;
  /**
   * Send the browser's requests for loopback hosts (`localhost`, `127.0.0.1`, `::1`) through the proxy too. By
   * default the network gate connects to them directly (after the URL policy), as Chromium's own bypass rule would.
   * @default false
   */
  proxyLoopback?: boolean;
}

/** Picks proxies round-robin per list. */
export class ProxyRotation {
  readonly #config: ProxyConfig;
  readonly #cursor = new Map<string[], number>();

  /** `config` was checked by `proxyConfigSchema` (`new Fetcher()`). */
  constructor(config: ProxyConfig = {}) {
    this.#config = config;
  }

  /** The proxy for a request in `mode` (and `country`), or `undefined` for a direct connection. */
  pick(mode: 'basic' | 'stealth', country?: string): string | undefined {
    const byCountry = country ? this.#countryList(country) : undefined;
    const list =
      byCountry ?? (mode === 'stealth' && this.#config.stealth?.length ? this.#config.stealth : this.#config.basic);
    if (!list?.length) return undefined;
    const index = this.#cursor.get(list) ?? 0;
    this.#cursor.set(list, (index + 1) % list.length);
    return list[index];
  }

  /** Whether `proxy` is one of the `stealth` list: a stealth attempt through anything else ran no stealth proxy. */
  isStealth(proxy: string | undefined): boolean {
    return proxy !== undefined && (this.#config.stealth?.includes(proxy) ?? false);
  }

  /** Whether any stealth proxy is configured (what a stealth page is expected to cost before it is fetched). */
  get hasStealth(): boolean {
    return (this.#config.stealth?.length ?? 0) > 0;
  }

  /**
   * What a request asked of the proxies that none configured gives, as a warning for its page: a `country` without a
   * `byCountry` list, or a stealth attempt without a `stealth` list (it went through `proxy`, else direct).
   */
  shortfall(mode: 'basic' | 'stealth', country: string | undefined, proxy: string | undefined): string | undefined {
    if (country !== undefined && !this.#countryList(country)) {
      const seen = proxy ? `the address of the proxy ${proxyName(proxy)}` : "this machine's own address";
      return `No proxy for location.country ${country.toUpperCase()} is configured (\`proxies.byCountry\`): the site saw ${seen}, not one in that country.`;
    }
    if (mode === 'stealth' && country === undefined && !this.#config.stealth?.length) {
      const way = proxy ? `through the proxy ${proxyName(proxy)}` : 'direct';
      return `No stealth proxy is configured (\`proxies.stealth\`): the stealth attempt went ${way}, with the browser's fingerprint evasions only.`;
    }
    return undefined;
  }

  #countryList(country: string): string[] | undefined {
    const code = country.toUpperCase();
    for (const [key, list] of Object.entries(this.#config.byCountry ?? {})) {
      if (key.toUpperCase() === code && list.length) return list;
    }
    return undefined;
  }
}
