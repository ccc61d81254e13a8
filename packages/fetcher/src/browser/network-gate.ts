import { randomBytes } from 'node:crypto';
import type { LookupAddress } from 'node:dns';
import type { Agent, IncomingMessage, ServerResponse } from 'node:http';
import type { Agent as HttpsAgent } from 'node:https';
import type { LookupFunction, Socket } from 'node:net';

import { lazyModule } from '@crawlkit/options/lazy-module';
import type { PrepareRequestFunctionOpts, PrepareRequestFunctionResult, Server } from 'proxy-chain';

import { FetchError, isFetchError } from '../errors.js';
import { DEFAULT_HTTP_LIMITS } from '../http/limits.js';
import { hostPortOf, proxyConnectFailure, proxySilentError, proxyStatusError } from '../proxy-errors.js';
import { checksAddresses, resolveChecked } from '../policy/guarded-lookup.js';
import { checkUrlAgainstPolicy, normalizeHost, redactUrl, type UrlPolicy } from '../policy/url-policy.js';
import { gateConnectLimit, gatewayFailure } from './gate-failures.js';
import { connectionGaveUp } from './navigation-errors.js';
import type { AgentWatch } from './watched-agent.js';

/** Where a browser context's traffic goes once the gate has let it through. */
export interface GateRoute {
  /** The user's upstream proxy (`http://user:pass@host:port`, https: and socks: too); unset: direct. */
  upstream?: string;
  /** Send loopback targets through `upstream` too (else they go direct, as Chromium does without the gate). */
  proxyLoopback?: boolean;
}

/** A listener for a spare context, whose route is given later to the page that takes it (`NetworkGate.spareProxy`). */
export interface SpareProxy {
  /** The context's `proxyServer`. */
  url: string;
  /** Sends the context's traffic along `route` from now on; until then, everything is refused. */
  bind: (route: GateRoute) => void;
  /** Hands the listener to the next spare: call it once the context is closed. */
  release: () => void;
}

export interface NetworkGateOptions {
  policy: UrlPolicy;
  /** Resolver for target names (the HTTP engine's `lookup`). */
  lookup?: LookupFunction;
  /**
   * Longest wait for a connection the gate opens (to a target, or to the upstream proxy), in milliseconds: the HTTP
   * engine's `connectTimeoutMs`, which the fetcher passes on.
   * @default 10000
   */
  connectTimeoutMs?: number;
}

/** proxy-chain (with socks, about 30 modules): loaded with the first browser context, HTTP-only use never needs it. */
const proxyChain = lazyModule(() => import('proxy-chain'));
/**
 * `node:http` (its agent) only with an upstream proxy: loading it loads Node's own undici, which the HTTP engine does
 * not need.
 */
const watchedAgent = lazyModule(() => import('./watched-agent.js'));
/** The gate's connect limit (`node:http`'s agent too): loaded with proxy-chain, which loads `node:http` anyway. */
const gateConnect = lazyModule(() => import('./gate-connect.js'));

/** Errors kept for the engine to report, most recent last; older ones are dropped past this count. */
const MAX_KEPT_ERRORS = 512;

/** proxy-chain's status for an upstream proxy that refused its credentials (a 407 or 401 of the upstream). */
const UPSTREAM_AUTH_FAILED = 597;

/** What the gate tags a tunnel through an upstream proxy with (`tunnelConnectFailed` hands it back). */
interface UpstreamTag {
  upstream: string;
  hostPort: string;
  url: string;
}

/**
 * The one way out of the browser: an in-process forward proxy (proxy-chain) that Chromium is pointed at for every
 * byte it sends. HTTP requests, CONNECT tunnels (HTTPS, WebSocket, WebRTC TURN over TCP) from pages, frames,
 * workers, shared and service workers and popups all arrive here, and each target is checked against the URL policy
 * before a connection is made: the URL-level rules (hosts, ports, literal addresses, loopback names), then every
 * address the name resolves to, and the connection is pinned to the addresses checked (no second resolution, so DNS
 * rebinding cannot slip through). A user's upstream proxy is chained behind the gate, after the same check.
 *
 * Each route (direct, or one upstream proxy) has its own listener on 127.0.0.1, which browser contexts use as their
 * proxy; a last listener refuses everything and serves as the browser-wide proxy, so Chromium's own background
 * traffic goes nowhere.
 */
export class NetworkGate {
  readonly #policy: UrlPolicy;
  readonly #lookup: LookupFunction | undefined;
  readonly #connectMs: number;
  /** The agent of plain requests sent direct, its connections limited to `#connectMs`. */
  #directAgent: Agent | undefined;
  readonly #listeners = new Map<string, Promise<Server>>();
  /** The agent of the connections to each upstream proxy (`#agentFor`). */
  readonly #agents = new Map<string, { http: Agent; https: HttpsAgent }>();
  /**
   * Refusals and failures, by id (for responses the gate answered) and by route and `host:port` (for tunnels), with
   * when they happened: a page is told only its own route's failures since it started.
   */
  readonly #errors = new Map<string, { error: FetchError; at: number }>();
  /** Requests sent to an upstream proxy and not yet answered, by route and `host:port` (`silentUpstream`). */
  readonly #pending = new Map<string, number>();
  /** Spare contexts' listeners whose contexts are closed, for the next spares (`spareProxy`). */
  readonly #freeSpares: SpareProxy[] = [];
  #spareCount = 0;
  /** Header marking a response the gate itself answered; random per gate, so a site cannot forge it. */
  readonly #marker = `x-crawlkit-gate-${randomBytes(6).toString('hex')}`;
  #nextId = 0;
  #closed = false;
  /** Targets refused so far (for tests and health checks). */
  refusals = 0;

  constructor(options: NetworkGateOptions) {
    this.#policy = options.policy;
    this.#lookup = options.lookup;
    this.#connectMs = options.connectTimeoutMs ?? DEFAULT_HTTP_LIMITS.connectTimeoutMs;
  }

  /** The proxy for Chromium as a whole (`--proxy-server`): it refuses everything. */
  backgroundProxy(): Promise<string> {
    return this.#endpoint('background', refuseAll);
  }

  /** The proxy for a browser context (`proxyServer`) whose traffic takes `route`. */
  contextProxy(route: GateRoute = {}): Promise<string> {
    const upstream = route.upstream;
    const key = upstream ? `upstream ${route.proxyLoopback ? 'all' : 'non-loopback'} ${upstream}` : 'direct';
    return this.#endpoint(
      key,
      (opts) => this.#admit(opts, route),
      () => upstream,
    );
  }

  /**
   * The proxy for a spare context, opened before its page's route is known: a listener of its own, refusing all until
   * `bind` gives it the route. Released listeners are reused: never more than spares and their pages open at once.
   */
  async spareProxy(): Promise<SpareProxy> {
    const reused = this.#freeSpares.pop();
    if (reused) return reused;
    const bound: { route?: GateRoute } = {};
    const admit = (opts: PrepareRequestFunctionOpts) => (bound.route ? this.#admit(opts, bound.route) : refuseAll());
    const url = await this.#endpoint(`spare ${this.#spareCount++}`, admit, () => bound.route?.upstream);
    const spare: SpareProxy = {
      url,
      bind: (route) => (bound.route = route),
      release: () => {
        bound.route = undefined;
        if (!this.#closed && !this.#freeSpares.includes(spare)) this.#freeSpares.push(spare);
      },
    };
    return spare;
  }

  /** The error the gate answered `response` with, when it did (a refused or failed plain-HTTP request). */
  errorOf(headers: Record<string, string>): FetchError | undefined {
    const id = headers[this.#marker];
    return id === undefined ? undefined : this.#errors.get(id)?.error;
  }

  /**
   * The last refusal or failure of a tunnel to `url`'s host and port through `upstream` (unset: direct) since `since`
   * (`Date.now()`): Chromium only says the tunnel failed. Another route's failure, or an older one, is not this page's.
   */
  tunnelError(url: string, upstream: string | undefined, since: number): FetchError | undefined {
    const kept = this.#errors.get(routeKey(upstream, hostPortOf(url)));
    return kept && kept.at >= since ? kept.error : undefined;
  }

  /**
   * Why a page through `upstream` that ran out of time got nothing: a request for `url`'s host and port sent to the
   * proxy that it has not answered (undefined when there is none: the time went elsewhere). `timedOut` says what ran
   * out: the caller's timeout (its ms), or a limit of Chromium's that `chromiumGaveUp` names.
   */
  silentUpstream(url: string, upstream: string | undefined, timedOut: number | string): FetchError | undefined {
    if (upstream === undefined) return undefined;
    if (!this.#pending.get(routeKey(upstream, hostPortOf(url)))) return undefined;
    const redacted = redactUrl(url);
    const how = typeof timedOut === 'number' ? `took longer than ${timedOut} ms` : `timed out on ${timedOut}`;
    return proxySilentError(upstream, redacted, `Loading ${redacted} in the browser ${how}`);
  }

  /** Stops every listener and cuts their connections. Idempotent. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#freeSpares.length = 0;
    const listeners = [...this.#listeners.values()];
    this.#listeners.clear();
    this.#directAgent?.destroy();
    for (const { http, https } of this.#agents.values()) {
      http.destroy();
      https.destroy();
    }
    this.#agents.clear();
    await Promise.all(
      listeners.map(async (pending) => {
        const server = await pending.catch(() => undefined);
        await server?.close(true).catch(() => undefined);
      }),
    );
  }

  #endpoint(
    key: string,
    admit: (opts: PrepareRequestFunctionOpts) => Promise<PrepareRequestFunctionResult | undefined>,
    upstreamOf: () => string | undefined = () => undefined,
  ): Promise<string> {
    if (this.#closed) return Promise.reject(new FetchError('FETCHER_CLOSED', 'The fetcher was closed.'));
    let listener = this.#listeners.get(key);
    if (!listener) {
      listener = Promise.all([proxyChain(), gateConnect()]).then(([{ Server, RequestError }, { limitTunnel }]) => {
        const server = new Server({ port: 0, host: '127.0.0.1', prepareRequestFunction: admit });
        server.server.prependListener('request', (request: IncomingMessage, response: ServerResponse) =>
          this.#markFailures(request, response, upstreamOf()),
        );
        // A tunnel's connection to its target is proxy-chain's own: limited once it is piped to Chromium's socket.
        server.server.prependListener('connect', (request: IncomingMessage, socket: Socket) => {
          const url = `https://${request.url ?? ''}/`;
          const kept = () => connectionGaveUp(url, hostPortOf(url), gateConnectLimit(this.#connectMs));
          limitTunnel(socket, this.#connectMs, () => this.#keep(kept(), upstreamOf(), hostPortOf(url)));
        });
        // The upstream's refusals are the proxy's, not the site's: Chromium only sees a failed tunnel, or a status
        // proxy-chain made up (597 for a 407), so the gate keeps what happened for the engine to report.
        server.on(
          'tunnelConnectFailed',
          ({ response, customTag }: { response: IncomingMessage; customTag: unknown }) => {
            const { upstream, hostPort, url } = customTag as UpstreamTag;
            this.#keep(proxyStatusError(upstream, response.statusCode ?? 0, hostPort, url), upstream, hostPort);
          },
        );
        const failRequest = server.failRequest.bind(server);
        server.failRequest = (request, error) => {
          const upstream = upstreamOf();
          const refused = error instanceof RequestError && error.statusCode === UPSTREAM_AUTH_FAILED;
          if (!refused || upstream === undefined) return failRequest(request, error);
          const url = redactUrl(request.url ?? '');
          const failure = proxyStatusError(upstream, 407, hostPortOf(url), url);
          failRequest(
            request,
            new RequestError(failure.message, error.statusCode, { [this.#marker]: this.#keep(failure) }),
          );
        };
        // A client that goes away mid-request is none of the gate's business.
        server.on('requestFailed', () => undefined);
        // Chromium's connections hold the process while it runs; the listener alone must not, or a script that
        // forgets close() never ends once the idle browser is gone.
        return server.listen().then(() => {
          server.server.unref();
          return server;
        });
      });
      listener.catch(() => this.#listeners.delete(key));
      this.#listeners.set(key, listener);
    }
    return listener.then((server) => `http://127.0.0.1:${server.port}`);
  }

  /** Decides one request or tunnel: refuse it, or say how to connect. */
  async #admit(opts: PrepareRequestFunctionOpts, route: GateRoute): Promise<PrepareRequestFunctionResult> {
    const host = normalizeHost(opts.hostname);
    const hostPort = `${host}:${opts.port}`;
    const target = opts.isHttp ? (opts.request.url ?? '') : `https://${bracket(host)}:${opts.port}/`;
    try {
      checkUrlAgainstPolicy(opts.isHttp ? target : new URL(target), this.#policy);
      const viaUpstream = route.upstream !== undefined && (route.proxyLoopback || !isLoopbackName(host));
      if (viaUpstream) {
        // The upstream resolves the name again; checking here first is the best a proxy chain allows.
        if (checksAddresses(this.#policy)) await resolveChecked(host, this.#policy, this.#lookup);
        const tag: UpstreamTag = { upstream: route.upstream!, hostPort, url: redactUrl(target) };
        const { http: httpAgent, https: httpsAgent } = await this.#agentsFor(route.upstream!);
        return { upstreamProxyUrl: route.upstream, customTag: tag, httpAgent, httpsAgent };
      }
      const addresses = await resolveChecked(host, this.#policy, this.#lookup);
      this.#directAgent ??= (await gateConnect()).directAgent(this.#connectMs);
      return {
        dnsLookup: pinnedLookup(addresses) as PrepareRequestFunctionResult['dnsLookup'],
        httpAgent: this.#directAgent,
      };
    } catch (error) {
      if (!isFetchError(error)) throw error;
      const failure = error.url === undefined ? withUrl(error, target) : error;
      if (failure.code === 'URL_BLOCKED') this.refusals++;
      const id = this.#keep(failure, route.upstream, opts.isHttp ? undefined : hostPort);
      const { RequestError } = await proxyChain();
      throw new RequestError(failure.message, failure.code === 'URL_BLOCKED' ? 403 : 502, { [this.#marker]: id });
    }
  }

  /** Marks the failure responses proxy-chain writes itself (the target refused or timed out) for `errorOf`. */
  #markFailures(request: IncomingMessage, response: ServerResponse, upstream: string | undefined): void {
    let fromTarget = false;
    const writeHead = response.writeHead.bind(response) as (...args: unknown[]) => ServerResponse;
    response.writeHead = (...args: unknown[]) => {
      fromTarget = true;
      return writeHead(...args);
    };
    const end = response.end.bind(response) as (...args: unknown[]) => ServerResponse;
    response.end = ((...args: unknown[]) => {
      if (!fromTarget && !response.headersSent && response.statusCode >= 400) {
        const url = redactUrl(request.url ?? '');
        const error = gatewayFailure(response.statusCode, url, upstream, this.#connectMs);
        response.setHeader(this.#marker, this.#keep(error));
      }
      return end(...args);
    }) as ServerResponse['end'];
  }

  /**
   * The agents of the gate's connections to `upstream` (one per scheme of the proxy itself): a tunnel whose
   * connection to the proxy fails is answered by proxy-chain with a bare status, so the failure is kept here, by the
   * tunnel's target, for `tunnelError` (a plain request's failure is marked on its answer, `#markFailures`); the
   * requests the proxy has not answered yet are counted for `silentUpstream`.
   */
  async #agentsFor(upstream: string): Promise<{ http: Agent; https: HttpsAgent }> {
    const { watchedAgents } = await watchedAgent();
    let agents = this.#agents.get(upstream);
    if (!agents) {
      const watch: AgentWatch = {
        onError: (error, target) => {
          const url = `https://${target}/`;
          const failure =
            proxyConnectFailure(upstream, error.code ?? '', new URL(upstream).hostname, url) ??
            (error.code === 'ETIMEDOUT'
              ? connectionGaveUp(url, `the proxy at ${hostPortOf(upstream)}`, gateConnectLimit(this.#connectMs))
              : undefined);
          if (failure) this.#keep(failure, upstream, hostPortOf(url));
        },
        onPending: (target) => {
          const key = routeKey(upstream, hostPortOf(`https://${target}/`));
          this.#pending.set(key, (this.#pending.get(key) ?? 0) + 1);
          let done = false;
          return {
            settled: () => {
              if (done) return;
              done = true;
              const left = (this.#pending.get(key) ?? 1) - 1;
              if (left > 0) this.#pending.set(key, left);
              else this.#pending.delete(key);
            },
          };
        },
      };
      agents = watchedAgents(watch, this.#connectMs);
      this.#agents.set(upstream, agents);
    }
    return agents;
  }

  #keep(error: FetchError, upstream?: string, hostPort?: string): string {
    const id = String(this.#nextId++);
    const kept = { error, at: Date.now() };
    this.#errors.set(id, kept);
    if (hostPort) {
      const key = routeKey(upstream, hostPort);
      this.#errors.delete(key);
      this.#errors.set(key, kept);
    }
    while (this.#errors.size > MAX_KEPT_ERRORS) this.#errors.delete(this.#errors.keys().next().value!);
    return id;
  }
}

/** The answer of a listener that lets nothing through (Chromium's own traffic, a spare context not taken yet). */
async function refuseAll(): Promise<never> {
  const { RequestError } = await proxyChain();
  throw new RequestError('Refused: traffic outside the pages crawlkit opened.', 403);
}

/** A lookup that answers with addresses already resolved and checked. */
function pinnedLookup(addresses: LookupAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) callback(null, addresses);
    else callback(null, addresses[0]!.address, addresses[0]!.family);
  };
}

/** Loopback as Chromium's implicit proxy bypass rules know it: `localhost`, `*.localhost`, 127/8, `::1`. */
export function isLoopbackName(host: string): boolean {
  return host === 'localhost' || host.endsWith('.localhost') || /^127\.\d+\.\d+\.\d+$/.test(host) || host === '::1';
}

function bracket(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

function withUrl(error: FetchError, url: string): FetchError {
  return new FetchError(error.code, error.message, {
    url: redactUrl(url),
    ...(error.rule !== undefined ? { rule: error.rule } : {}),
    cause: error,
  });
}

/** The key of a tunnel's failure: its route (the upstream proxy, or direct) and its target. */
function routeKey(upstream: string | undefined, hostPort: string): string {
  return `${upstream ?? 'direct'} ${hostPort}`;
}
