/**
 * One request and the response it got, as an engine saw them, for recording (`HttpRequest.onExchange`). A redirect
 * hop is an exchange of its own, with its 3xx status, its `location` and no body.
 */
export interface Exchange {
  /** The URL requested (credentials removed). */
  url: string;
  method: string;
  /** The request headers sent, names lower-cased (as far as the engine knows them: Chromium adds some). */
  requestHeaders: Record<string, string>;
  status: number;
  /** The response headers, names lower-cased. */
  headers: Record<string, string>;
  /**
   * The body without its transfer encoding. From the HTTP engine, as received: its `content-encoding` still on (the
   * engine hands on the decoded bytes, the recording keeps what the server sent). From the browser, decoded (CDP gives
   * no other). A recorder drops `transfer-encoding`, and `content-encoding` when `decoded`, and writes a
   * `content-length` that matches `body`.
   */
  body: Uint8Array;
  /** False when `body` still has the `content-encoding` of `headers`. */
  decoded: boolean;
  /** When the response arrived (epoch ms). */
  receivedAt: number;
  engine: 'http' | 'browser';
}

/** Receives the exchanges of a fetch, in the order they happened. It must not throw. */
export type ExchangeSink = (exchange: Exchange) => void;

/** A response served from a recording, as the browser is given it in place of the network. */
export interface ServedResponse {
  status: number;
  /** Response headers, names lower-cased (no encoding or length headers: `body` is decoded). */
  headers: Record<string, string>;
  body: Uint8Array;
}

/**
 * Answers a request from recordings (replay in the browser): the recorded response, or a `FetchError` for a URL not
 * recorded. Every request of the page goes to it; none reaches the network.
 */
export type RecordedSource = (url: string) => Promise<ServedResponse>;
