import { clampPosition, isDrag } from './gesture'

/**
 * The floating Ava button and the panel frame, inside a closed shadow root created from the
 * content script's isolated world: page scripts cannot reach into it, page CSS cannot style it.
 * The chat itself is an extension page in an <iframe>, so what the person types never passes
 * through the page's DOM or event listeners (docs/security.md).
 */
export interface Launcher {
  open(focus?: boolean): void
  close(): void
  toggle(): void
  readonly isOpen: boolean
  /** Marks the host once the conversation state is known (tests wait for it; it reveals nothing). */
  markReady(): void
}

const kButtonSize = 52 // px, a comfortable touch target
const kMargin = 20 // px from the viewport edge at first show
const kPanelWidth = 400
const kPanelHeight = 600

const css = `
:host { all: initial; }
.btn { position: fixed; width: ${kButtonSize}px; height: ${kButtonSize}px; border-radius: 50%; border: none;
  background: linear-gradient(135deg, #5b5bf7, #9b4dff); color: #fff; font: 600 18px/1 system-ui, sans-serif;
  box-shadow: 0 4px 14px rgba(0,0,0,.25); cursor: grab; z-index: 2147483647; touch-action: none; user-select: none; }
.btn:focus-visible { outline: 3px solid #ffbf47; outline-offset: 2px; }
.btn.dragging { cursor: grabbing; }
.frame { position: fixed; width: ${kPanelWidth}px; height: ${kPanelHeight}px; max-height: calc(100vh - 24px); max-width: calc(100vw - 24px);
  border: none; border-radius: 14px; box-shadow: 0 12px 40px rgba(0,0,0,.3); z-index: 2147483647; background: transparent; color-scheme: normal; }
.frame[hidden] { display: none; }
`

export function createLauncher(opts: { panelUrl: string; getToken: () => Promise<string>; onToggle: (open: boolean) => void }): Launcher {
  const host = document.createElement('ava-root')
  host.setAttribute('data-ava-ui', '')
  // Inline !important beats any page rule, so the page cannot hide or move our host by CSS.
  host.style.setProperty('all', 'initial', 'important')
  host.style.setProperty('position', 'fixed', 'important')
  host.style.setProperty('z-index', '2147483647', 'important')
  const root = host.attachShadow({ mode: 'closed' })
  const style = document.createElement('style')
  style.textContent = css
  const button = document.createElement('button')
  button.className = 'btn'
  button.type = 'button'
  button.textContent = 'Ava'
  button.setAttribute('aria-label', 'Open Ava assistant')
  button.setAttribute('aria-expanded', 'false')
  root.append(style, button)
  document.documentElement.append(host)

  let pos = clampPosition(innerWidth - kButtonSize - kMargin, innerHeight - kButtonSize - kMargin, kButtonSize, { width: innerWidth, height: innerHeight })
  let frame: HTMLIFrameElement | null = null
  let frameReady = false
  let isOpen = false
  let focusWhenReady = false
  const panelOrigin = new URL(opts.panelUrl).origin

  const place = () => {
    button.style.left = `${pos.x}px`
    button.style.top = `${pos.y}px`
    if (frame) {
      // The panel opens above the button, or below it when the button sits near the top.
      const left = Math.min(Math.max(12, pos.x + kButtonSize - kPanelWidth), innerWidth - kPanelWidth - 12)
      const above = pos.y - kPanelHeight - 12
      frame.style.left = `${Math.max(12, left)}px`
      frame.style.top = `${above >= 12 ? above : Math.min(pos.y + kButtonSize + 12, Math.max(12, innerHeight - kPanelHeight - 12))}px`
    }
  }
  place()
  addEventListener('resize', () => {
    pos = clampPosition(pos.x, pos.y, kButtonSize, { width: innerWidth, height: innerHeight })
    place()
  })

  const post = (msg: unknown) => frame?.contentWindow?.postMessage(msg, panelOrigin)

  // Only our own frame may talk to us: the source window and the extension origin are checked,
  // neither of which a page script can forge.
  addEventListener('message', (e) => {
    if (!frame || e.source !== frame.contentWindow || e.origin !== panelOrigin) return
    const type = (e.data as { type?: string })?.type
    if (type === 'ava:panel-ready') {
      frameReady = true
      opts.getToken().then((token) => {
        post({ type: 'ava:token', token })
        if (focusWhenReady) post({ type: 'ava:focus' })
      })
    } else if (type === 'ava:close') api.close()
  })

  const ensureFrame = () => {
    if (frame) return frame
    frame = document.createElement('iframe')
    frame.className = 'frame'
    frame.title = 'Ava assistant'
    frame.setAttribute('allow', 'clipboard-write')
    frame.src = opts.panelUrl
    root.append(frame)
    place()
    return frame
  }

  const api: Launcher = {
    open(focus = true) {
      ensureFrame().hidden = false
      isOpen = true
      button.setAttribute('aria-expanded', 'true')
      focusWhenReady = focus
      if (frameReady && focus) post({ type: 'ava:focus' })
      opts.onToggle(true)
    },
    close() {
      if (frame) frame.hidden = true
      isOpen = false
      button.setAttribute('aria-expanded', 'false')
      button.focus()
      opts.onToggle(false)
    },
    toggle() {
      if (isOpen) api.close()
      else api.open()
    },
    get isOpen() {
      return isOpen
    },
    markReady() {
      host.setAttribute('data-ava-ready', '')
    },
  }

  let start: { x: number; y: number; t: number; ox: number; oy: number } | null = null
  let moved = 0
  button.addEventListener('pointerdown', (e) => {
    if (e.button !== 0) return
    button.setPointerCapture(e.pointerId)
    start = { x: e.clientX, y: e.clientY, t: performance.now(), ox: pos.x, oy: pos.y }
    moved = 0
  })
  button.addEventListener('pointermove', (e) => {
    if (!start) return
    moved = Math.max(moved, Math.hypot(e.clientX - start.x, e.clientY - start.y))
    if (isDrag({ durationMs: performance.now() - start.t, distancePx: moved })) {
      button.classList.add('dragging')
      pos = clampPosition(start.ox + e.clientX - start.x, start.oy + e.clientY - start.y, kButtonSize, { width: innerWidth, height: innerHeight })
      place()
    }
  })
  button.addEventListener('pointerup', (e) => {
    if (!start) return
    const gesture = { durationMs: performance.now() - start.t, distancePx: Math.max(moved, Math.hypot(e.clientX - start.x, e.clientY - start.y)) }
    start = null
    button.classList.remove('dragging')
    if (!isDrag(gesture)) api.toggle()
  })
  button.addEventListener('pointercancel', () => {
    start = null
    button.classList.remove('dragging')
  })
  // Keyboard users toggle with Enter/Space; those arrive as click events with detail 0.
  button.addEventListener('click', (e) => {
    if (e.detail === 0) api.toggle()
  })

  return api
}
