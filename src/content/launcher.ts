import { clampPosition, isDrag } from './gesture'
import { keepOutSpot, panelBox, type Box, type Point } from './keep-out'
import { watchHostDrawn, type DrawnFault, type HostDrawn } from './host-drawn'

/**
 * The floating Ava button and the panel frame, inside a closed shadow root created from the
 * content script's isolated world: page scripts cannot reach into it, page CSS cannot style it.
 * The chat itself is an extension page in an <iframe>, so what the person types never passes
 * through the page's DOM or event listeners (docs/security.md, "The panel frame").
 *
 * No window message passes between this script, the page and the panel: the panel talks to the
 * background on its own port, and the background tells us when the frame we made is live and when
 * its document went away. A frame whose document changed is thrown away and rebuilt, and a frame
 * is shown again only after the background has confirmed its document, so whatever the page may
 * load into it is not shown as Ava.
 */
export interface Launcher {
  open(focus?: boolean): void
  close(): void
  toggle(): void
  readonly isOpen: boolean
  /** Marks the host once the conversation state is known (tests wait for it; it reveals nothing). */
  markReady(): void
  /** Names the button in the language picked in Ava ('auto': the browser's, from chrome.i18n). */
  setLanguage(language: 'auto' | keyof typeof kLabels): void
  /** The background paired the panel document that presented `token`: the frame may be shown. */
  panelLive(token: string): void
  /** That panel document went away: its frame is never shown again. */
  panelGone(token: string): void
  /** Runs a step of Ava's on the page: the focus moves it makes are its own, not the page taking the keyboard. */
  acting<T>(step: () => Promise<T>): Promise<T>
  /**
   * A step is about to act on `target` (a box in the window): when Ava's button or panel covers
   * any of it, they move to another corner (or the panel folds to its button), visibly, and come
   * back once the steps are over. Resolves when the target is clear.
   */
  keepOut(target: Box): Promise<void>
  /** Hides the button and the panel while a screenshot is taken (docs/agent.md, "Screenshots"): the model sees the page, not Ava. */
  capturing(on: boolean): void
  /**
   * Why a click the panel that presented `token` took at `at` (epoch ms), at `point` in the frame,
   * should not be acted on: the frame was not drawn plainly from 500 ms before it until now
   * (src/content/host-drawn.ts); null when it was.
   */
  drawnFault(token: string, at: number, point: Point): DrawnFault | null
}

const kButtonSize = 52 // px, a comfortable touch target
const kMargin = 20 // px from the viewport edge at first show
const kPanelWidth = 400
const kPanelHeight = 600
/** How long a move out of a step's way takes; over two of the panel's visibility reports (100 ms each). */
const kMoveMs = 300
/** After the last step, Ava goes back home this much later, so a run of steps does not make it bounce. */
const kComeBackMs = 800
/** The button's name in the languages Ava speaks (the same words as public/_locales). */
const kLabels = { en: 'Open Ava assistant', 'zh-CN': '打开 Ava 助手' } as const

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
.frame.checking { visibility: hidden; }
/* Moving out of a step's way: the person sees it travel. Faded while it moves, so the panel's own
   click protection (src/panel/visibility.ts) sees it as not fully visible and takes no click until
   it has stood still in plain view again. */
.moving { transition: left ${kMoveMs}ms ease, top ${kMoveMs}ms ease; opacity: .5; }
`

/** The attributes our host carries; the page may add none, and the style is ours alone. */
const kHostAttributes = new Set(['style', 'data-ava-ui', 'data-ava-ready'])
// Inline !important beats any page rule (and animations), so the page cannot hide, fade or move
// our host by CSS; a page script that edits the attribute is undone by the observer below.
const kHostStyle =
  'all: initial !important; position: fixed !important; z-index: 2147483647 !important; opacity: 1 !important; pointer-events: auto !important;'

/**
 * Our own host, never one the page made: a page may pre-create `<ava-root>` or define it as a
 * custom element whose constructor takes the shadow root first; then a plain <div>, which a page
 * cannot customise, carries the UI instead.
 */
function makeHost(): { host: HTMLElement; root: ShadowRoot } {
  for (const tag of ['ava-root', 'div']) {
    const host = document.createElement(tag)
    try {
      return { host, root: host.attachShadow({ mode: 'closed' }) }
    } catch {
      // claimed by the page's custom element; try the next tag
    }
  }
  throw new Error('No element accepts a shadow root')
}

// A page that removes the host again and again would have us rebuild the panel forever, and the
// person could never reach Stop in it: after this many removals this soon, Ava stays out of the
// page and the toolbar button (whose popup has Stop) says why.
const kMaxRemovals = 5
const kRemovalWindowMs = 10_000

/** Keeps the host ours: its style and attributes as we set them, and in the document. */
function guardHost(host: HTMLElement, onBlocked: () => void): void {
  const removals: number[] = []
  const restore = () => {
    for (const name of host.getAttributeNames()) if (!kHostAttributes.has(name)) host.removeAttribute(name)
    if (host.getAttribute('style') !== kHostStyle) host.setAttribute('style', kHostStyle)
    if (host.parentNode === document.documentElement) return
    const now = performance.now()
    removals.push(now)
    while (removals[0]! < now - kRemovalWindowMs) removals.shift()
    // The first append is not a removal.
    if (removals.length > kMaxRemovals) {
      observer.disconnect()
      host.remove()
      onBlocked()
      return
    }
    document.documentElement.append(host)
  }
  const observer = new MutationObserver(restore)
  document.documentElement.append(host)
  restore()
  observer.observe(host, { attributes: true })
  observer.observe(document.documentElement, { childList: true })
}

// A focus move the person made comes in the same task as their click or Tab (the browser moves
// focus on pointerdown and on Tab's keydown); one with neither just before is the page's script
// taking the keyboard from the panel.
const kGestureMs = 250

export function createLauncher(opts: {
  panelUrl: string
  getToken: () => Promise<string>
  onToggle: (open: boolean) => void
  /**
   * Asks the background whether the panel document that presented `token` is still the one in
   * the frame (and to focus its input): the page may have navigated the frame since.
   */
  confirmLive: (token: string, focus: boolean) => Promise<boolean>
  /** The page moved focus out of the panel by script; the panel is told (by token). */
  onFocusTaken: (token: string) => void
  /** The page kept removing Ava's host: it is not put back. */
  onBlocked: () => void
  /**
   * The page's own devicePixelRatio, said when the panel frame gets its token and whenever it
   * changes (the person zooms, the window moves to another screen): the panel compares its own to
   * it, so a CSS zoom the page puts on the frame is seen (src/panel/scale.ts).
   */
  onPageDpr?: (token: string, dpr: number) => void
}): Launcher {
  const { host, root } = makeHost()
  host.setAttribute('data-ava-ui', '')
  const style = document.createElement('style')
  style.textContent = css
  const hide = document.createElement('style')
  hide.textContent = '.btn, .frame { visibility: hidden !important; }'
  const button = document.createElement('button')
  button.className = 'btn'
  button.type = 'button'
  button.textContent = 'Ava'
  // chrome.i18n (public/_locales), not the UI's locale files: those would cost the boot script
  // every page pays for. It follows the browser's language until the background says which one
  // the person picked in Ava (setLanguage); the fallback is for tests without it.
  const browserLabel = globalThis.chrome?.i18n?.getMessage('launcherLabel') || kLabels.en
  button.setAttribute('aria-label', browserLabel)
  button.setAttribute('aria-expanded', 'false')
  root.append(style, button)
  guardHost(host, opts.onBlocked)

  let pos = clampPosition(innerWidth - kButtonSize - kMargin, innerHeight - kButtonSize - kMargin, kButtonSize, {
    width: innerWidth,
    height: innerHeight,
  })
  let frame: HTMLIFrameElement | null = null
  let drawnWatch: HostDrawn | null = null
  let token: string | null = null
  let live = false
  let isOpen = false
  let focusWhenReady = false

  const place = () => {
    button.style.left = `${pos.x}px`
    button.style.top = `${pos.y}px`
    if (frame) {
      // The panel opens above the button, or below it when the button sits near the top.
      const box = panelBox(
        pos,
        kButtonSize,
        { width: kPanelWidth, height: kPanelHeight },
        { width: innerWidth, height: innerHeight },
      )
      frame.style.left = `${box.x}px`
      frame.style.top = `${box.y}px`
    }
  }
  place()
  addEventListener('resize', () => {
    pos = clampPosition(pos.x, pos.y, kButtonSize, { width: innerWidth, height: innerHeight })
    place()
  })

  /** Throws the frame away; the next open builds a fresh one with a fresh token. */
  const dropFrame = () => {
    drawnWatch?.stop()
    drawnWatch = null
    frame?.remove()
    frame = null
    token = null
    live = false
  }

  const buildFrame = (): HTMLIFrameElement => {
    guardKeyboard()
    const f = document.createElement('iframe')
    f.className = 'frame'
    f.title = 'Ava assistant'
    f.setAttribute('allow', 'clipboard-write')
    frame = f
    drawnWatch = watchHostDrawn(host, f)
    let loads = 0
    // Our panel loads once and never navigates itself: a second load is someone else's document.
    f.addEventListener('load', () => {
      if (++loads > 1 && frame === f) rebuild()
    })
    opts.getToken().then(
      (t) => {
        if (frame !== f) return
        token = t
        f.src = `${opts.panelUrl}#${t}`
        root.append(f)
        place()
        tellDpr()
      },
      () => frame === f && dropFrame(),
    )
    return f
  }

  // The page's devicePixelRatio changes only with the browser's zoom or screen; a media query on
  // the current value fires once when it does, then is set up again for the new value.
  let dprQuery: MediaQueryList | null = null
  function tellDpr() {
    if (token) opts.onPageDpr?.(token, devicePixelRatio)
    dprQuery?.removeEventListener('change', tellDpr)
    dprQuery = matchMedia(`(resolution: ${devicePixelRatio}dppx)`)
    dprQuery.addEventListener('change', tellDpr)
  }

  const rebuild = () => {
    dropFrame()
    if (isOpen) buildFrame()
  }

  // Out of a step's way (keepOut): where the person had it, and whether the panel is folded.
  let home: Point | null = null
  let folded = false
  let comeBack: ReturnType<typeof setTimeout> | undefined
  // The person's pointer, from trusted events only: Ava never moves onto it.
  let pointer: Point | null = null
  addEventListener('pointermove', (e) => e.isTrusted && (pointer = { x: e.clientX, y: e.clientY }), {
    capture: true,
    passive: true,
  })
  addEventListener('pointerdown', (e) => e.isTrusted && (pointer = { x: e.clientX, y: e.clientY }), {
    capture: true,
    passive: true,
  })

  const travel = async (to: Point, fold: boolean): Promise<void> => {
    const parts = frame ? [button, frame] : [button]
    for (const p of parts) p.classList.add('moving')
    pos = to
    if (frame && fold !== folded) frame.hidden = fold || !isOpen
    folded = fold
    place()
    await new Promise((ok) => setTimeout(ok, kMoveMs))
    for (const p of parts) p.classList.remove('moving')
  }

  const goHome = () => {
    comeBack = undefined
    if (!home || stepsRunning) return
    const back = home
    home = null
    void travel(back, false)
  }

  const api: Launcher = {
    open(focus = true) {
      isOpen = true
      folded = false
      button.setAttribute('aria-expanded', 'true')
      focusWhenReady = focus
      // A new frame is shown as it loads: the page holds no reference to it, so nothing else can
      // have been loaded into it yet.
      if (!frame) buildFrame()
      else if (live && token) {
        // Shown again only once the background vouches for the document in it.
        const [f, t] = [frame, token]
        f.classList.add('checking')
        void opts.confirmLive(t, focus).then((ok) => {
          if (frame !== f) return
          if (ok) f.classList.remove('checking')
          else rebuild()
        })
      }
      frame!.hidden = false
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
    setLanguage(language) {
      button.setAttribute('aria-label', language === 'auto' ? browserLabel : kLabels[language])
    },
    panelLive(t) {
      if (!frame || t !== token) return
      live = true
      if (isOpen && focusWhenReady) void opts.confirmLive(t, true)
    },
    panelGone(t) {
      if (frame && t === token) rebuild()
    },
    drawnFault(t, at, point) {
      if (!frame || !drawnWatch || t !== token || !isOpen) return 'hidden'
      return drawnWatch.faultSince(at, point)
    },
    capturing(on) {
      // Inside our closed root, where the page's guard on the host's style neither sees nor undoes it.
      if (on) root.append(hide)
      else hide.remove()
    },
    async acting(step) {
      stepsRunning++
      clearTimeout(comeBack)
      try {
        return await step()
      } finally {
        stepsRunning--
        if (home && !stepsRunning) comeBack = setTimeout(goHome, kComeBackMs)
      }
    },
    async keepOut(target) {
      const spot = keepOutSpot(
        target,
        {
          button: pos,
          buttonSize: kButtonSize,
          panel: frame && isOpen && !folded ? { width: kPanelWidth, height: kPanelHeight } : null,
        },
        { width: innerWidth, height: innerHeight },
        pointer,
      )
      if (!spot) return
      home ??= pos
      await travel(spot.button, spot.fold)
    },
  }
  // Back from the back/forward cache the panel's port is gone for good: start over.
  addEventListener('pageshow', (e) => {
    if (e.persisted && frame) rebuild()
  })

  // The keyboard stays with the panel: focus that leaves it for a page element with no click or
  // Tab from the person (trusted events, capture phase, before any page listener can stop them)
  // is given back at once, in the same task, so no key the person types reaches the page.
  // Installed with the first panel frame, not at start-up: a page where Ava was never opened has
  // no keyboard to guard, and every page runs this script.
  let gestureAt = -Infinity
  let stepsRunning = 0 // Ava's own steps move focus on the page
  let panelHadFocus = false
  let keyboardGuarded = false
  function guardKeyboard(): void {
    if (keyboardGuarded) return
    keyboardGuarded = true
    addEventListener('pointerdown', (e) => e.isTrusted && (gestureAt = performance.now()), true)
    addEventListener('keydown', (e) => e.isTrusted && e.key === 'Tab' && (gestureAt = performance.now()), true)
    // The top document sees focus enter our frame as a blur with our host active.
    addEventListener(
      'blur',
      () => {
        panelHadFocus = document.activeElement === host
        // Only a gesture made while the panel has the keyboard lets the keyboard leave it.
        if (panelHadFocus) gestureAt = -Infinity
      },
      true,
    )
    addEventListener(
      'focusin',
      (e) => {
        const had = panelHadFocus
        panelHadFocus = false
        if (
          !had ||
          stepsRunning ||
          e.target === host ||
          !frame ||
          frame.hidden ||
          !token ||
          performance.now() - gestureAt < kGestureMs
        )
          return
        frame.focus()
        panelHadFocus = document.activeElement === host
        opts.onFocusTaken(token)
      },
      true,
    )
  }

  let start: { x: number; y: number; t: number; ox: number; oy: number } | null = null
  let moved = 0
  button.addEventListener('pointerdown', (e) => {
    if (e.button !== 0) return
    button.setPointerCapture(e.pointerId)
    start = { x: e.clientX, y: e.clientY, t: performance.now(), ox: pos.x, oy: pos.y }
    moved = 0
    // The person takes Ava somewhere: that is its place now.
    home = null
  })
  button.addEventListener('pointermove', (e) => {
    if (!start) return
    moved = Math.max(moved, Math.hypot(e.clientX - start.x, e.clientY - start.y))
    if (isDrag({ durationMs: performance.now() - start.t, distancePx: moved })) {
      button.classList.add('dragging')
      pos = clampPosition(start.ox + e.clientX - start.x, start.oy + e.clientY - start.y, kButtonSize, {
        width: innerWidth,
        height: innerHeight,
      })
      place()
    }
  })
  button.addEventListener('pointerup', (e) => {
    if (!start) return
    const gesture = {
      durationMs: performance.now() - start.t,
      distancePx: Math.max(moved, Math.hypot(e.clientX - start.x, e.clientY - start.y)),
    }
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
