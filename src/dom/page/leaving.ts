/**
 * Whether the document is about to be replaced by a step that just ran. A click that
 * sends a form by POST returns before the browser starts the navigation, and a replay's next step
 * sent meanwhile would reach this document while it unloads — and be taken for a click that
 * navigated. A form sent or a link followed with its default action intact will navigate, so the
 * step waits for the document to start leaving, within a bound, and says so.
 */

/** How long an un-prevented submit or link click gets to start unloading the document. */
const kLeaveStartMs = 2_000

export interface LeaveWatch {
  /** True when the document started to unload, or is about to (waits up to kLeaveStartMs for it). */
  settle(): Promise<boolean>
  stop(): void
}

function followsLink(e: Event): boolean {
  const a = (e.target instanceof Element ? e.target : null)?.closest('a[href]') as HTMLAnchorElement | null
  if (!a || (a.target && a.target !== '_self') || a.hasAttribute('download')) return false
  try {
    const to = new URL(a.href, location.href)
    if (!/^https?:$/.test(to.protocol)) return false
    // Another fragment of this page is no new document.
    return !(
      to.origin === location.origin &&
      to.pathname === location.pathname &&
      to.search === location.search &&
      to.hash
    )
  } catch {
    return false
  }
}

export function watchLeaving(view: Window = window): LeaveWatch {
  let expected = false
  let left = false
  let wake: (() => void) | null = null
  const controller = new AbortController()
  const opts = { signal: controller.signal }
  // On the window, in the bubble phase: after the page's own handlers had their chance to cancel.
  view.addEventListener(
    'submit',
    (e) =>
      void (expected ||=
        !e.defaultPrevented && !((e.target as HTMLFormElement | null)?.target ?? '').replace('_self', '')),
    opts,
  )
  view.addEventListener('click', (e) => void (expected ||= !e.defaultPrevented && followsLink(e)), opts)
  const leave = () => {
    left = true
    wake?.()
  }
  view.addEventListener('beforeunload', leave, opts)
  view.addEventListener('pagehide', leave, opts)
  return {
    async settle() {
      if (left || !expected) return left
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, kLeaveStartMs)
        wake = () => {
          clearTimeout(timer)
          resolve()
        }
      })
      return left
    },
    stop: () => controller.abort(),
  }
}
