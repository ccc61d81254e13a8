// First: an unsupported Node.js is told what to install before anything else loads.
import './assert-runtime.js';

export { Crawlkit } from './crawlkit.js';
export type { CallOptions, JobStartOptions, WaitOptions, WatchOptions } from './call-options.js';
export type { StatusPagination, UnfinishedJob } from './api/job-queries.js';
export type { ReadyResponse } from './api/readiness.js';
export type { JobDocumentsPage, JobDocumentsText } from './api/job-documents.js';
export type { CrawlkitOptions } from './options.js';
export { PARSE_FILE_LIMIT } from './options.js';
export type { CrawlkitEmitter, CrawlkitEventName, CrawlkitEvents, CrawlkitListener } from './events.js';
export { WARNING_CODES, type WarningCode } from './warning-codes.js';
export { createDebugLogger, loggerSchema, silentLogger } from './logger.js';
export type { Logger } from './logger.js';
export type { CrawlkitWorker, WorkerOptions } from './worker/task-worker.js';
export type {
  CrawlkitBackend,
  BackendConnection,
  WorkQueue,
  WorkQueueCounts,
  WorkItem,
  WorkAttempt,
  WorkHandler,
  WorkConsumer,
  Coordination,
} from '@crawlkit/store';
export { verifyWebhook, WEBHOOK_HEADERS } from './webhooks/signature.js';
export type { VerifyWebhookOptions, WebhookHeaders } from './webhooks/signature.js';
export type { LlmOptions } from './llm/llm-options.js';
export type { CrawlParamsPreviewInput, CrawlParamsPreviewResponse } from './llm/crawl-prompt.js';
export {
  CrawlkitError,
  isCrawlkitError,
  hasCrawlkitCode,
  InvalidOptionError,
  isInvalidOptionError,
  toErrorResponse,
} from './errors.js';
export type { CrawlkitCodedError } from './errors.js';
export { ERROR_CODES, httpStatusOf, isErrorCode } from './error-codes.js';
export { unrecognizedKeysSentence } from './v2/parse.js';
export { answerInOperatorWords, inOperatorWords, storedDocumentInOperatorWords } from './operator-words.js';
export type { OptionNames } from './operator-words.js';
export type { CrawlkitErrorCode, ErrorCodeInfo } from './error-codes.js';
export type {
  ScrapeRequestInput,
  ScrapeRequest,
  ScrapeOptionsInput,
  ScrapeOptions,
  ParserInput,
} from './v2/scrape-options.js';
export type { ParseFile, ParseOptionsInput } from './api/parse.js';
export { sizeText } from '@crawlkit/options/size-text';
export type {
  CrawlRequestInput,
  CrawlRequest,
  BatchScrapeRequestInput,
  BatchScrapeRequest,
  MapRequestInput,
  MapRequest,
  WebhookInput,
} from './v2/jobs.js';
export type { FormatInput, Format, FormatType } from './v2/formats.js';
export { NAMED_FORMATS } from './v2/formats.js';
export type { Action, Action as ActionInput } from '@crawlkit/actions';
export type {
  Document,
  DocumentMetadata,
  ActionResults,
  ChangeTrackingResult,
  BrandingProfile,
  ProductProfile,
  JobPostingProfile,
  JobPostingAddress,
  ProductVariant,
  ProductPrice,
  ErrorResponse,
  ScrapeResponse,
  CrawlResponse,
  BatchScrapeResponse,
  JobStatus,
  JobStatusResponse,
  CrawlStatusResponse,
  BatchScrapeStatusResponse,
  CrawlChange,
  CrawlChangesResponse,
  CrawlErrorsResponse,
  CancelResponse,
  ActiveCrawlsResponse,
  MapResponse,
  CreditUsageResponse,
  TokenUsageResponse,
  QueueStatusResponse,
  ConcurrencyCheckResponse,
  WebhookEventType,
  WebhookPayload,
  ScheduleChangePayload,
} from './v2/types.js';
export type { ScheduleMethods } from './schedules/schedule-methods.js';
export type { ScheduleListResponse, ScheduleResponse, ScheduleView } from './schedules/schedule-api.js';
export type { ScheduleRequestInput, ScheduleChangeEvent, UpdateScheduleInput } from './schedules/schedule-request.js';
export type { MonitorMethods, MonitorListQuery } from './monitors/monitor-methods.js';
export type { MonitorResponse } from './monitors/monitor-api.js';
export type { CreateMonitorInput, UpdateMonitorInput } from './monitors/monitor-request.js';
export type {
  MonitorView,
  MonitorCheckView,
  MonitorCheckDetailView,
  MonitorCheckPageView,
  MonitorTargetResult,
} from './monitors/monitor-views.js';
export type { SearchRequestInput, SearchRequest, SearchSource } from './search/request.js';
export type { SearchResponse, SearchResult } from './search/run-search.js';
export type { LocalResult } from './search/local-source.js';
/** The payloads of the `crawlkit:scrape:explain` and `crawlkit:scrape:timings` diagnostics channels. */
export type { ScrapeExplanation } from './scrape/explanation.js';
export type { ScrapeTimings } from './scrape/timings.js';
export type { ExplainedBlock, ExplainedPage } from '@crawlkit/extractor';
export type { SearchOptions, SearchProviderOptions } from './search/options.js';
export type { WebResult, WebSearchProvider, WebSearchQuery, WebSource } from './search/providers/provider.js';
export { searxngProvider, type SearxngOptions } from './search/providers/searxng.js';
export { braveProvider, type BraveOptions } from './search/providers/brave.js';
