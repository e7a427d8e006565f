import { z } from 'zod'
import { FlowSchema, HealProposalSchema, RawEventSchema, type Flow } from '../core/flows'
import { typedKey } from './area'

/**
 * Record and replay's storage (background/recorder.ts): a recording's events per tab in
 * chrome.storage.session (the worker may stop between two clicks), the draft it became, and the
 * saved flows with their pending heal proposals in chrome.storage.local. Each value is checked
 * against the flow format's own schemas on every read and write.
 */

/** Events kept per recording: a long session is still far below this, a runaway page is not. */
export const kMaxEvents = 5_000

const RecordingSchema = z.object({
  startedAt: z.number(),
  startUrl: z.string(),
  events: z.array(RawEventSchema).max(kMaxEvents),
})
export type Recording = z.infer<typeof RecordingSchema>
export const recordingStore = (tabId: number) =>
  typedKey<Recording | null>('session', `flowrec:${tabId}`, RecordingSchema.nullable(), () => null)

/** The flow made when a recording stopped (or from a run), waiting to be saved or discarded. */
export const draftStore = (tabId: number) =>
  typedKey<Flow | null>('session', `flowdraft:${tabId}`, FlowSchema.nullable(), () => null)

const SavedFlowSchema = z.object({
  id: z.string(),
  namespace: z.string(),
  /** The pack action's full name: `recorded:flow:<name>`. */
  action: z.string(),
  flow: FlowSchema,
  savedAt: z.number(),
  /** Heals of the last replay the person has not accepted or rejected yet. */
  pending: z.array(HealProposalSchema),
  /** When the person approved the steps a page could have shaped (`metadata.page_shaped`). */
  reviewedAt: z.number().optional(),
})
export type SavedFlow = z.infer<typeof SavedFlowSchema>
export const savedFlowsStore = typedKey<Record<string, SavedFlow>>(
  'local',
  'flows.saved',
  z.record(z.string(), SavedFlowSchema),
  () => ({}),
)
