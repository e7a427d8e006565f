import type { PageCommand, PageOutcome } from '../core/page/command'
import { createReceiver } from '../dom/page/receiver'
import { frameRequests } from '../dom/page/read'
import { send } from '../messaging'

/**
 * The page side of Ava in this frame, loaded on the first command: the channel's one receiver
 * (src/dom/page/receiver.ts), whose recorder sends each event to the background at once, since
 * the page may unload right after the click that caused it.
 */
let keepOut: ((box: { x: number; y: number; width: number; height: number }) => Promise<void>) | undefined

const receive = createReceiver({
  emitRecorded: (event) => void send('content→bg:flow.event', { event }).catch(() => undefined),
  makeRoom: (box) => keepOut?.(box) ?? Promise.resolve(),
  requests: frameRequests,
})

/** `makeRoom`: the top frame's launcher moves Ava's button and panel out of a step's way (keep-out.ts). */
export function onCommand(command: PageCommand, makeRoom?: typeof keepOut): Promise<PageOutcome> {
  keepOut = makeRoom
  return receive(command)
}
