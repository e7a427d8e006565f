import { z } from 'zod'
import { keepRecords, type RunRecord } from '../core/agent/record'
import { DEFAULT_RECORDS } from '../core/settings'
import { typedKey, type TypedKey } from './area'
import { settingsStore } from './settings'

/**
 * A site's run records (core/agent/record.ts, docs/run-record.md), newest first, in
 * chrome.storage.local beside its history: deleting the history deletes them. Every write keeps
 * only what the bounds in settings.records allow.
 */
export const kRecordsPrefix = 'records:'

// The record's own shape is core's (RunRecord); storage checks only what it sorts and bounds by.
const RecordsSchema = z.array(
  z.looseObject({
    id: z.string(),
    startedAt: z.number(),
    endedAt: z.number().optional(),
    events: z.array(z.unknown()),
  }),
)

export const recordsStore = (origin: string): TypedKey<RunRecord[]> =>
  typedKey<RunRecord[]>(
    'local',
    `${kRecordsPrefix}${origin}`,
    RecordsSchema as unknown as z.ZodType<RunRecord[]>,
    () => [],
  )

/** Adds a finished run's record, within the bounds. */
export async function keepRecord(record: RunRecord, now = Date.now()): Promise<void> {
  const bounds = (await settingsStore.get()).records ?? DEFAULT_RECORDS
  const store = recordsStore(record.origin)
  const others = (await store.get()).filter((r) => r.id !== record.id)
  await store.set(keepRecords([record, ...others], bounds, now))
}

/** The record of run `id` on `origin`, if it is still kept. */
export async function findRecord(origin: string, id: string): Promise<RunRecord | undefined> {
  return (await recordsStore(origin).get()).find((r) => r.id === id)
}
