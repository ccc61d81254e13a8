import type { JobPatch, JobRecord } from './types.js';

export type { JobPatch };

/** Fields a patch can set; `updatedAt` is always written. */
export type PatchableField = keyof JobPatch;

const OPTIONAL: ReadonlySet<PatchableField> = new Set(['completedAt', 'expiresAt', 'error']);
const FIELDS: readonly PatchableField[] = [
  'status',
  'request',
  'createdAt',
  'completedAt',
  'expiresAt',
  'creditsUsed',
  'error',
];

/**
 * The writes a `jobs.update` patch stands for, in a fixed order: `[field, value]`, where `null` clears an optional
 * field (given as `undefined`). An `undefined` required field is skipped. `updatedAt` comes last.
 */
export function jobPatchEntries(patch: JobPatch, now: number): [PatchableField, string | number | null][] {
  const entries: [PatchableField, string | number | null][] = [];
  for (const field of FIELDS) {
    if (!Object.hasOwn(patch, field)) continue;
    const value = patch[field];
    if (value !== undefined) entries.push([field, value]);
    else if (OPTIONAL.has(field)) entries.push([field, null]);
  }
  entries.push(['updatedAt', patch.updatedAt ?? now]);
  return entries;
}

/** Applies a patch to an in-memory record. */
export function applyJobPatch(record: JobRecord, patch: JobPatch, now: number): void {
  const target = record as unknown as Record<string, unknown>;
  for (const [field, value] of jobPatchEntries(patch, now)) {
    if (value === null) delete target[field];
    else target[field] = value;
  }
}
