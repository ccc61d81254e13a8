/** What a code means, the HTTP status the v2 API answers it with, and what the caller can do about it. */
export interface ErrorCodeInfo {
  /** The HTTP status of a v2 response carrying this code (reference §17 where upstream has the code). */
  readonly status: number;
  /** What happened. */
  readonly meaning: string;
  /** What to do about it. */
  readonly action: string;
}

export const info = (status: number, meaning: string, action: string): ErrorCodeInfo => ({ status, meaning, action });
