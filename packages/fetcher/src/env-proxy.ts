/**
 * The proxy Node's own `fetch` and `http` take from the environment for `url`, by Node's rule (Node 24): only when
 * `NODE_USE_ENV_PROXY=1` (or `--use-env-proxy`), `HTTPS_PROXY` for https: and `HTTP_PROXY` for http: (either case),
 * unless `NO_PROXY` names the host (`*`, `host`, `.suffix` or `*.suffix`, with an optional `:port`). crawlkit's own
 * calls that are not pages (webhooks) follow it, as the model and search calls do through Node's `fetch`; pages go
 * through `proxies` only.
 * @returns the proxy URL, or undefined for a direct connection.
 */
export function envProxyFor(url: string | URL, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const enabled = env.NODE_USE_ENV_PROXY === '1' || process.execArgv.includes('--use-env-proxy');
  if (!enabled) return undefined;
  const target = new URL(url);
  const proxy =
    target.protocol === 'https:'
      ? (env.HTTPS_PROXY ?? env.https_proxy)
      : target.protocol === 'http:'
        ? (env.HTTP_PROXY ?? env.http_proxy)
        : undefined;
  if (!proxy) return undefined;
  return bypassed(target, env.NO_PROXY ?? env.no_proxy ?? '') ? undefined : proxy;
}

function bypassed(target: URL, noProxy: string): boolean {
  const host = target.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const port = target.port || (target.protocol === 'https:' ? '443' : '80');
  for (const raw of noProxy.split(/[\s,]+/)) {
    const entry = raw.trim().toLowerCase();
    if (!entry) continue;
    if (entry === '*') return true;
    // `host:port`, `[v6]:port`, or a bare name or address (an IPv6 one has more than one colon).
    const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
    const parts = entry.split(':');
    const [name, entryPort] = bracketed
      ? [bracketed[1]!, bracketed[2]]
      : parts.length === 2
        ? [parts[0]!, parts[1]]
        : [entry, undefined];
    if (entryPort !== undefined && entryPort !== port) continue;
    if (name.startsWith('*.') || name.startsWith('.')) {
      const suffix = name.startsWith('*.') ? name.slice(1) : name;
      if (host.endsWith(suffix) || host === suffix.slice(1)) return true;
    } else if (host === name) return true;
  }
  return false;
}
