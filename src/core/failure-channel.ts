import type { FailureSpec } from './failure'

/**
 * The message channel's codes of the one failure list (core/failure.ts spreads them into
 * `kFailures`). In a file of their own because src/messaging/transport.ts is in the boot script of
 * every page, which must not carry the whole list: it reads only these codes' meanings.
 */
export const kChannelFailures = {
  NO_RECEIVER: {
    means: 'Nobody took the message (no content script yet, the document or frame is gone, the tab closed).',
    say: { plain: 'failure.NO_RECEIVER', run: 'outcome.error.NO_PAGE' },
    exit: 'failed',
  },
  GONE_MID_MESSAGE: {
    means: 'The receiver took the message and went away before it answered: what it was asked may have been done.',
    say: { plain: 'failure.GONE_MID_MESSAGE', run: 'outcome.error.NO_PAGE' },
    exit: 'failed',
  },
  CONTEXT_GONE: {
    means: 'This context was cut off from the extension (Ava was updated or reloaded).',
    say: { plain: 'failure.CONTEXT_GONE', run: 'outcome.error.NO_PAGE' },
    exit: 'failed',
  },
  CHANNEL: {
    means: 'Anything else the browser said about a message; its words are kept for logs only.',
    say: { plain: 'failure.CHANNEL', run: 'outcome.error.NO_PAGE' },
    exit: 'failed',
  },
} as const satisfies Record<string, FailureSpec>
