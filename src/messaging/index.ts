import browser from 'webextension-polyfill'
import { createMessenger, type RuntimeLike, type TabsLike } from './transport'

/** The messenger of whichever context imports it. `tabs` is absent in content scripts. */
export const messenger = createMessenger(
  browser.runtime as unknown as RuntimeLike,
  browser.tabs as unknown as TabsLike | undefined,
)
export const { send, handle, sendToTab, authorize } = messenger
export {
  ChannelError,
  ProtocolError,
  channelError,
  isGoneMidMessage,
  isReceiverGone,
  type ChannelCode,
  type HandlerContext,
  type SenderKind,
} from './transport'
export * from './protocol'
