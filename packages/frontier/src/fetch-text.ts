/** The frontier's only way out to the network: injected, so the engine's URL policy, timeouts and limits apply. */
export type FetchText = (
  url: string,
  init?: { signal?: AbortSignal },
) => Promise<{ url: string; status: number; contentType: string; body: Uint8Array; text?: string }>;
