import type { PageCommand, PageOutcome } from '../core/page/command'
import { createReceiver } from '../dom/page/receiver'
import { send } from '../messaging'

/**
 * The page side of Ava in this frame, loaded on the first command: the channel's one receiver
 * (src/dom/page/receiver.ts), whose recorder sends each event to the background at once, since
 * the page may unload right after the click that caused it.
 */
const receive = createReceiver({
  emitRecorded: (event) => void send('content→bg:flow.event', { event }).catch(() => undefined),
})

export function onCommand(command: PageCommand): Promise<PageOutcome> {
  return receive(command)
}
