/**
 * Type-level compatibility with the official v2 JavaScript SDK (`@mendable/firecrawl-js`, a devDependency): our
 * documents, job statuses and requests assign to the SDK's types and back. `pnpm typecheck` checks this file; the
 * runtime test below only keeps vitest from reporting an empty file.
 */
import type {
  ActionOption,
  Format,
  FormatOption,
  FormatString,
  BatchScrapeJob as SdkBatchScrapeJob,
  BatchScrapeOptions as SdkBatchScrapeOptions,
  CrawlJob as SdkCrawlJob,
  CrawlOptions as SdkCrawlOptions,
  CrawlResponse as SdkCrawlResponse,
  Document as SdkDocument,
  DocumentMetadata as SdkDocumentMetadata,
  MapData as SdkMapData,
  MapOptions as SdkMapOptions,
  ScrapeOptions as SdkScrapeOptions,
  WebhookConfig as SdkWebhookConfig,
} from '@mendable/firecrawl-js';
import type {
  ActionInput,
  BatchScrapeRequestInput,
  BatchScrapeStatusResponse,
  CrawlRequestInput,
  CrawlResponse,
  CrawlStatusResponse,
  Document,
  FormatInput,
  MapRequestInput,
  MapResponse,
  ParserInput,
  ScrapeOptionsInput,
  ScrapeRequestInput,
  WebhookInput,
} from 'crawlkit';
import { describe, expect, expectTypeOf, it } from 'vitest';

/** Compiles only when `A` is assignable to `B`. */
// eslint-disable-next-line @typescript-eslint/no-unused-vars -- `A` is only checked against its constraint
const assign = <A extends B, B>(): true => true;

/** `T` with the fields of `U` replaced by `U`'s. */
type With<T, U> = Omit<T, keyof U> & U;
/** `T` without `null` in its fields. */
type NoNulls<T> = { [K in keyof T]: Exclude<T[K], null> };

/*
 * Our documents and job statuses assign to the SDK's as they are. The other way, and for requests, each narrowing
 * below names the field and why:
 * - the SDK's request types are wider than the v2 interface: any string as `proxy` or parser, `null` for crawl
 *   options; the API's `rawBase64` and `deterministicJson` formats and crawlkit's own `jobPosting` are not in the
 *   SDK's types.
 * - our action input lets `scroll.direction` default to `down`; the SDK requires it.
 * - we also accept `integration: null`.
 * - the SDK's `branding` allows any extra field of any type; ours is the profile crawlkit computes.
 * - the SDK's `Document` has no required metadata and untyped `changeTracking`/`actions`; ours always carry
 *   `metadata.sourceURL` and `statusCode`, and type both objects.
 */
type SdkDocumentAsOurs = With<
  Omit<SdkDocument, 'changeTracking' | 'actions' | 'branding'>,
  { metadata: With<SdkDocumentMetadata, Required<Pick<SdkDocumentMetadata, 'sourceURL' | 'statusCode'>>> }
>;
type OurProxy = NonNullable<ScrapeOptionsInput['proxy']>;
/** Formats of the API that the SDK's types do not list. */
type OursOnlyFormat =
  'rawBase64' | 'deterministicJson' | 'jobPosting' | { type: 'rawBase64' | 'deterministicJson' | 'jobPosting' };
/** The SDK's formats with the options the API takes (its `Format` object allows a `type` that needs options). */
type SdkV2Format =
  Exclude<FormatOption, Format> | { type: Exclude<FormatString, 'json' | 'changeTracking' | 'attributes'> };
/** An SDK scrape options object with the values the v2 API accepts. */
type SdkV2Parsers = ParserInput[];
type SdkV2ScrapeOptions = With<SdkScrapeOptions, { proxy?: OurProxy; formats?: SdkV2Format[]; parsers?: SdkV2Parsers }>;

// Documents and job statuses, both ways.
assign<Document, SdkDocument>();
assign<SdkDocumentAsOurs, Document>();
// The SDK adds the id it asked about to a job status.
assign<CrawlStatusResponse & { id: string }, SdkCrawlJob>();
assign<BatchScrapeStatusResponse & { id: string }, SdkBatchScrapeJob>();
assign<
  With<SdkCrawlJob, { data: SdkDocumentAsOurs[]; expiresAt: string; creditsUsed: number }>,
  Omit<CrawlStatusResponse, 'success' | 'next'>
>();
assign<CrawlResponse, SdkCrawlResponse>();
assign<MapResponse, SdkMapData>();

// Requests: ours are the SDK's...
type SdkFormats = { formats?: Exclude<FormatInput, OursOnlyFormat>[] };
type OurScrapeOptions = With<Omit<ScrapeOptionsInput, 'actions' | 'integration' | '__experimental_omce'>, SdkFormats>;
assign<
  With<Omit<ScrapeRequestInput, 'actions' | 'integration' | '__experimental_omce'>, SdkFormats>,
  SdkScrapeOptions & { url: string }
>();
assign<OurScrapeOptions, SdkScrapeOptions>();
assign<
  With<Omit<CrawlRequestInput, 'integration'>, { scrapeOptions?: OurScrapeOptions }>,
  SdkCrawlOptions & { url: string }
>();
assign<
  With<Omit<BatchScrapeRequestInput, 'actions' | 'integration' | '__experimental_omce' | 'toolDetail'>, SdkFormats>,
  NonNullable<SdkBatchScrapeOptions['options']>
>();
assign<Omit<MapRequestInput, 'integration'>, SdkMapOptions & { url: string }>();
assign<WebhookInput, string | SdkWebhookConfig>();
assign<ActionOption, ActionInput>();

// ... and the SDK's are ours.
type SdkScrapeBody = SdkV2ScrapeOptions & { url: string };
type SdkCrawlBody = With<NoNulls<SdkCrawlOptions>, { scrapeOptions?: SdkV2ScrapeOptions }> & {
  url: string;
};
type SdkBatchBody = With<
  NonNullable<SdkBatchScrapeOptions['options']>,
  { proxy?: OurProxy; formats?: SdkV2Format[]; parsers?: SdkV2Parsers }
> &
  Omit<SdkBatchScrapeOptions, 'options'> & { urls: string[] };
assign<SdkScrapeBody, ScrapeRequestInput>();
assign<SdkCrawlBody, CrawlRequestInput>();
assign<SdkBatchBody, BatchScrapeRequestInput>();
assign<SdkMapOptions & { url: string }, MapRequestInput>();

describe('types of @mendable/firecrawl-js', () => {
  it('accept our documents and job statuses', () => {
    const doc: Document = { markdown: '# Hi', metadata: { sourceURL: 'https://example.com', statusCode: 200 } };
    const sdkDoc: SdkDocument = doc;
    expect(sdkDoc.metadata?.sourceURL).toBe('https://example.com');
    expectTypeOf<Document>().toExtend<SdkDocument>();
  });
});
