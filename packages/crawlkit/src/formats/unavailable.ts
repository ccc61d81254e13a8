/**
 * What a request may ask that cannot exist locally (hosted services, enterprise team settings): accepted, never
 * refused, and never dropped in silence. The formats are modules that only say so in the document's `warning`; the
 * options are read once per page by `unavailableOptionWarnings`.
 */
import { z } from 'zod';

import type { Parser, ThreatProtection } from '../v2/scrape-options.js';
import { jsonSchemaObject } from './json.js';
import { defineFormat, type FormatSchema } from './format-module.js';

const sentence = (text: string) => `${text[0]!.toUpperCase()}${text.slice(1)}.`;

/** A format accepted for compatibility whose field cannot be produced here: its document gets `why` as a warning. */
function unavailableFormat<S extends FormatSchema>(schema: S, type: z.output<S>['type'], why: string) {
  return defineFormat({
    type,
    schema,
    produce: (_format, state) => {
      const warning = sentence(why);
      if (!state.warnings.includes(warning)) state.warnings.push(warning);
    },
  });
}

const plain = <T extends string>(type: T) => z.strictObject({ type: z.literal(type) });

export const audioFormat = unavailableFormat(
  plain('audio'),
  'audio',
  'the audio format needs the hosted media pipeline, which does not exist locally: the document has no audio',
);
export const videoFormat = unavailableFormat(
  plain('video'),
  'video',
  'the video format needs the hosted media pipeline, which does not exist locally: the document has no video',
);
export const menuFormat = unavailableFormat(
  plain('menu'),
  'menu',
  'the menu format is not implemented by crawlkit: the document has no menu',
);
/** Its options upstream are those of `json` (undocumented beyond them). */
export const deterministicJsonFormat = unavailableFormat(
  z.strictObject({
    type: z.literal('deterministicJson'),
    schema: jsonSchemaObject.optional(),
    prompt: z.string().max(10_000).optional(),
  }),
  'deterministicJson',
  'the deterministicJson format needs the hosted deterministic extractor, which does not exist locally: the document has no json',
);

/** The options of a scrape request `unavailableOptionWarnings` reads. */
export interface OptionRequest {
  parsers: readonly Parser[];
  redactPII?: unknown;
  profile?: { name: string } | undefined;
  threatProtection?: ThreatProtection | undefined;
  auditMetadata?: unknown;
  domainTools?: boolean | undefined;
  toolDetail?: string | undefined;
}

/** The document warnings of the options a request gives that cannot be had locally. */
export function unavailableOptionWarnings(request: OptionRequest): string[] {
  const warnings: string[] = [];
  const say = (text: string) => warnings.push(sentence(text));
  if (request.redactPII !== undefined && request.redactPII !== false) {
    say('redactPII needs the hosted redaction models, which do not exist locally: the content is not redacted');
  }
  if (request.profile) {
    say(
      `persistent browser profiles (profile "${request.profile.name}") are a hosted feature: the page was ` +
        'fetched without stored browser state',
    );
  }
  const mode = request.threatProtection?.mode;
  if (mode === 'normal' || mode === 'zscaler') {
    say(
      `threatProtection mode "${mode}" scans URLs with a hosted provider, which does not exist locally: only its ` +
        'blacklist, whitelist and blocked TLDs apply',
    );
  }
  if (request.auditMetadata !== undefined)
    say('auditMetadata goes to the hosted audit log, which does not exist locally');
  if (request.domainTools || request.toolDetail !== undefined) {
    say(
      'domainTools and toolDetail list hosted Alexandria tools, which do not exist locally: the document has no tools',
    );
  }
  const pdf = request.parsers.find((p) => p.type === 'pdf');
  if (pdf?.blocks)
    say('the pdf parser option blocks (layout blocks) is not available locally: the document has no blocks');
  if (pdf?.pages || pdf?.pageMarkers) {
    say('the pdf parser options pages and pageMarkers are not available locally: the markdown is one piece');
  }
  return warnings;
}
