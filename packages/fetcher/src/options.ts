/**
 * The schemas of the fetcher's options: the one check of `new Fetcher()`, `new HttpEngine()` and the fetcher options
 * crawlkit composes into `new Crawlkit()` (`browser`, `http`, `proxies`, `urlPolicy`). Strict at every level: a
 * misspelt key is named, never ignored (`allowPrivateNetwork` would otherwise turn the URL policy's protection off
 * in silence). Defaults stay with the code that applies them (`DEFAULT_HTTP_LIMITS`, the pool's `DEFAULTS`).
 */
import type { LookupFunction } from 'node:net';

import { functionOption, nonNegativeInt, objectWith, positiveInt } from '@crawlkit/options';
import { z } from 'zod';

import type { PageEngine } from './engines/page-engine.js';
import type { RenderJudge } from './render/judge.js';
import { networkEntryIssue } from './policy/allowed-networks.js';

/**
 * What is wrong with a host entry of `allowedHosts` or `blockedHosts` that no URL's host could ever match (a network, a
 * URL, a port), or undefined: taken as a host name, `10.0.0.0/8` allowed nothing and refused nothing, in silence.
 */
function hostEntryIssue(entry: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(entry)) {
    return `\`${entry}\` is a URL: list its host alone (\`${entry.replace(/^[a-z][a-z0-9+.-]*:\/\/([^/?#]*).*$/i, '$1')}\`)`;
  }
  if (entry.includes('/')) {
    return (
      `\`${entry}\` is a network, and the list takes hosts (\`10.1.2.3\`, \`wiki.corp\`, \`*.corp.example\`): list ` +
      'the hosts of that network, or, to let a private network through the strict policy, set allowPrivateNetworks: ' +
      'false with the network in allowedNetworks'
    );
  }
  if (/^[^:[\]]+:\d+$/.test(entry)) {
    return `\`${entry}\` names a port: list the host alone (\`${entry.replace(/:\d+$/, '')}\`), and the port in allowedPorts`;
  }
  return undefined;
}

const hosts = z
  .array(
    z
      .string()
      .min(1)
      .superRefine((entry, ctx) => {
        const issue = hostEntryIssue(entry);
        if (issue) ctx.addIssue({ code: 'custom', message: issue });
      }),
  )
  .readonly();

const networks = z
  .array(
    z.string().superRefine((entry, ctx) => {
      const issue = networkEntryIssue(entry);
      if (issue) ctx.addIssue({ code: 'custom', message: issue });
    }),
  )
  .readonly();

/** `UrlPolicy`. */
export const urlPolicySchema = z
  .strictObject({
    allowPrivateNetworks: z.boolean().optional(),
    allowedNetworks: networks.optional(),
    allowedHosts: hosts.optional(),
    blockedHosts: hosts.optional(),
    allowedPorts: z.array(z.number().int().min(1).max(65_535)).readonly().optional(),
  })
  .superRefine((policy, ctx) => {
    if (policy.allowedNetworks?.length && policy.allowPrivateNetworks !== false) {
      ctx.addIssue({
        code: 'custom',
        path: ['allowedNetworks'],
        message:
          'allowedNetworks lists the private networks the strict policy lets through, and every network is reachable ' +
          'without it: set allowPrivateNetworks: false with it (or use allowedHosts to allow only some hosts)',
      });
    }
  });

/** `HttpLimits`, each optional. */
export const httpLimitsSchema = z.strictObject({
  maxBodyBytes: positiveInt.optional(),
  maxDecompressedBytes: positiveInt.optional(),
  maxCompressionRatio: z.number().positive().finite().optional(),
  maxRedirects: nonNegativeInt.optional(),
  connectTimeoutMs: positiveInt.optional(),
  headersTimeoutMs: positiveInt.optional(),
  idleTimeoutMs: positiveInt.optional(),
  lowSpeedBytesPerSec: nonNegativeInt.optional(),
  lowSpeedWindowMs: positiveInt.optional(),
  maxHeaderBytes: positiveInt.optional(),
});

/** `HttpEngineOptions`. */
export const httpOptionsSchema = z.strictObject({
  urlPolicy: urlPolicySchema.optional(),
  limits: httpLimitsSchema.optional(),
  userAgent: z.string().min(1).optional(),
  lookup: functionOption<LookupFunction>('a dns.lookup-compatible function').optional(),
  connections: positiveInt.optional(),
});

/** Options only a launch can honour: refused together with `wsEndpoint`. */
const LAUNCH_ONLY = ['executablePath', 'args', 'maxPagesPerBrowser'] as const;

const devtoolsEndpoint = z.string().refine(
  (value) => {
    try {
      return ['ws:', 'wss:', 'http:', 'https:'].includes(new URL(value).protocol);
    } catch {
      return false;
    }
  },
  { error: 'Expected a DevTools endpoint like `ws://127.0.0.1:9222/devtools/browser/<id>` or `http://127.0.0.1:9222`' },
);

/** `BrowserOptions`. */
export const browserOptionsSchema = z
  .strictObject({
    wsEndpoint: devtoolsEndpoint.optional(),
    executablePath: z.string().min(1).optional(),
    args: z.array(z.string()).optional(),
    maxPagesPerBrowser: positiveInt.optional(),
    idleTimeoutMs: positiveInt.optional(),
    maxConcurrentPages: positiveInt.optional(),
    launchTimeoutMs: positiveInt.optional(),
    launchRetryMs: positiveInt.optional(),
    prewarm: z.boolean().optional(),
    screenshotDir: z.string().min(1).optional(),
    smartWaitMaxMs: positiveInt.optional(),
    smartWait: z
      .strictObject({
        networkIdleMs: positiveInt.optional(),
        networkQuietMs: positiveInt.optional(),
        domIdleMs: positiveInt.optional(),
        pollMs: positiveInt.optional(),
      })
      .optional(),
    adblockLists: z.array(z.string().min(1)).optional(),
  })
  .superRefine((options, ctx) => {
    if (options.wsEndpoint === undefined) return;
    for (const key of LAUNCH_ONLY) {
      if (options[key] === undefined) continue;
      ctx.addIssue({
        code: 'custom',
        path: [key],
        message:
          `\`${key}\` applies to a Chromium crawlkit launches, and \`wsEndpoint\` connects to one started elsewhere: ` +
          'drop one of the two (give flags and the executable where that browser starts)',
      });
    }
  });

const proxyUrl = z.string().refine(
  (value) => {
    try {
      new URL(value);
      return true;
    } catch {
      return false;
    }
  },
  { error: 'Expected a proxy URL like `http://user:pass@host:port`' },
);

/** `ProxyConfig`. */
export const proxyConfigSchema = z.strictObject({
  basic: z.array(proxyUrl).optional(),
  stealth: z.array(proxyUrl).optional(),
  byCountry: z.record(z.string(), z.array(proxyUrl)).optional(),
  proxyLoopback: z.boolean().optional(),
});

/** `FetcherOptions`. */
export const fetcherOptionsSchema = z
  .strictObject({
    engine: z.string().min(1).optional(),
    http: httpOptionsSchema.optional(),
    browser: browserOptionsSchema.optional(),
    proxies: proxyConfigSchema.optional(),
    urlPolicy: urlPolicySchema.optional(),
    autoStealth: z.boolean().optional(),
    renderJudge: functionOption<RenderJudge>('a render judge function').optional(),
    engines: z
      .array(
        objectWith<PageEngine>(
          'a PageEngine with name, renders, fetch and close',
          'name',
          'renders',
          'fetch()',
          'close()',
        ).refine((engine) => typeof engine.name === 'string' && /^[\w-]+$/.test(engine.name), {
          path: ['name'],
          error: 'Expected a name of letters, digits, `_` or `-` (what a request names it by in `engine`)',
        }),
      )
      .optional(),
  })
  // Checked even when other options are wrong (`when`), so that every problem is listed at once.
  .refine((options) => typeof options.engine !== 'string' || engineNames(options).includes(options.engine), {
    path: ['engine'],
    when: () => true,
    error: (issue) =>
      `Expected one of ${engineNames(issue.input as FetcherOptionsInput)
        .map((name) => `'${name}'`)
        .join(', ')} (an engine of \`engines\` by its name)`,
  });

interface FetcherOptionsInput {
  engines?: unknown;
}

/** The engine names a fetcher with these options knows: the built-in ones and those of `engines`. */
function engineNames(options: FetcherOptionsInput): string[] {
  const given = Array.isArray(options.engines) ? (options.engines as { name?: unknown }[]) : [];
  return ['auto', 'http', 'browser', ...given.map((engine) => String(engine.name))];
}
