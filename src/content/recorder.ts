import type { RawEvent } from '../core/flows'
import type { FlowPageCall, FlowPageReply } from '../messaging/protocol'
import type { RecordedTarget } from '../core/flows/record'
import { describeInstructionTarget, runFlowStep, startRecording } from '../dom/recorder'
import { send } from '../messaging'

/**
 * The page side of record and replay (issue 8), loaded on first use like ./agent: the recorder's
 * listeners while the person records, and one flow step at a time when a flow is replayed.
 */

let recording: AbortController | null = null

function setRecording(on: boolean): void {
  recording?.abort()
  recording = null
  if (!on) return
  const ctl = new AbortController()
  recording = ctl
  // Each event goes out at once: the page may unload right after the click that caused it.
  const emit = (event: RawEvent) => void send('content→bg:flow.event', { event }).catch(() => undefined)
  startRecording({ emit, signal: ctl.signal })
}

async function describeTargets(targets: Extract<FlowPageCall, { op: 'describe' }>['targets']): Promise<(RecordedTarget | null)[]> {
  const out: (RecordedTarget | null)[] = []
  for (const t of targets) out.push(await describeInstructionTarget(t).catch(() => null))
  return out
}

export async function onFlowCall(call: FlowPageCall): Promise<FlowPageReply> {
  if (call.op === 'record') {
    setRecording(call.on)
    return { op: 'record', ok: true }
  }
  if (call.op === 'step') return { op: 'step', outcome: await runFlowStep(call.step, { timeoutMs: call.timeoutMs, trusted: call.trusted }) }
  return { op: 'describe', targets: await describeTargets(call.targets) }
}
