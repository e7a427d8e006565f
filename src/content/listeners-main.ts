/**
 * Listener hints, in the page's main world at document_start, on every page: which
 * elements a script made clickable without giving them any semantics (a `<span>` with a click
 * listener, an `onclick` property, a jQuery delegated handler, a React `onClick`).
 *
 * Nothing the page can observe changes: `addEventListener` and the `on*` setters become Proxies
 * of the natives (same identity for the page's lifetime, same `name` and `length`, the listener
 * itself is passed through untouched, so order, options, `once`, `signal` and
 * `removeEventListener` are the browser's own), and `Function.prototype.toString` answers for a
 * proxy what it answers for its target. Every step of ours is inside a try: a failure only means
 * fewer hints. Targets are held weakly (WeakRef), so removed nodes are collected.
 *
 * Only DOM nodes and events cross between worlds. This script *pushes* the hints, on its own
 * schedule: one `kHint` event on the document, whose target ranges start at the hinted elements
 * (dom/observe/listeners.ts), `kPushDelayMs` after the page added a listener or changed its DOM,
 * and once when the boot script (on every page, at load, Ava used or not) asks. Ava's reads send
 * nothing: the page cannot tell a read from any other moment (docs/page-representation.md,
 * "Listener hints"); when a push comes depends only on what the page itself did. StaticRanges are
 * not tracked by the document, so nothing in the DOM changes, and one event costs one call into
 * the other world however many elements it names. The page can forge hints just as it can add an
 * onclick attribute: a hint only lists an element, it is never trusted for anything else.
 *
 * No imports and no exports: the build emits this file as it is, with no loader.
 */
;(() => {
  const kAsk = 'ava-hints?'
  const kHint = 'ava-hint'
  // The event types a person's click or key press starts with.
  // No prototype: `addEventListener('toString', …)` is no click.
  const kinds: Record<string, 1> = {
    __proto__: null,
    click: 1,
    mousedown: 1,
    pointerdown: 1,
    mouseup: 1,
    keydown: 1,
    touchstart: 1,
  } as any
  // Saved now: the page may replace these globals later.
  const R = Reflect
  const apply = R.apply
  const nodeType = R.getOwnPropertyDescriptor(Node.prototype, 'nodeType')!.get!
  const targets = new WeakMap<object, object>()
  const seen = new WeakSet<object>()
  let refs: WeakRef<Node>[] = []
  let live = 0
  const Range = StaticRange
  const Input = InputEvent
  const later = setTimeout
  const Observer = MutationObserver
  // After the page's own change, this long before the hints are pushed: a burst of changes (a
  // framework rendering a list) is one push, and a push costs a walk of the hinted nodes. A page
  // that never stops changing (a ticker, an animation in the DOM) pushes less and less often, down
  // to one push every kMaxPushDelayMs, so a page Ava never reads pays almost nothing for it.
  const kPushDelayMs = 150
  const kMaxPushDelayMs = 2_000
  const now = Date.now
  const min = Math.min
  let delay = kPushDelayMs
  let lastPush = 0
  let pending = false
  const schedule = () => {
    if (pending) return
    pending = true
    delay = now() - lastPush < 1_000 ? min(delay * 2, kMaxPushDelayMs) : kPushDelayMs
    later(() => {
      pending = false
      lastPush = now()
      answer()
    }, delay)
  }

  const note = (t: unknown) => {
    try {
      const n = apply(nodeType, t, [])
      if ((n === 1 || n === 9) && !seen.has(t as Node)) {
        seen.add(t as Node)
        schedule()
        // Compacted whenever it doubles: the list stays about twice the nodes still alive.
        if (refs.push(new WeakRef(t as Node)) > live * 2 + 64) live = (refs = refs.filter((r) => r.deref())).length
      }
    } catch {
      // a failure only means fewer hints
    }
  }
  const wrap = <F extends (...a: any[]) => any>(f: F, check: (args: any[]) => unknown): F => {
    // Handlers without a prototype: traps the page adds to Object.prototype must not reach them.
    const p = new Proxy(f, {
      __proto__: null,
      apply(f: F, self: unknown, args: any[]) {
        try {
          if (check(args)) note(self)
        } catch {
          // a failure only means fewer hints
        }
        return apply(f, self, args)
      },
    } as ProxyHandler<F>)
    targets.set(p, f)
    return p
  }
  const proto = EventTarget.prototype
  proto.addEventListener = wrap(proto.addEventListener, (a) => typeof a[0] == 'string' && kinds[a[0]] && a[1])
  for (const k in kinds) {
    const d = R.getOwnPropertyDescriptor(HTMLElement.prototype, 'on' + k)
    if (d?.set)
      R.defineProperty(HTMLElement.prototype, 'on' + k, { ...d, set: wrap(d.set, (a) => typeof a[0] == 'function') })
  }
  const fp = Function.prototype
  const str = fp.toString
  const strProxy = new Proxy(str, {
    __proto__: null,
    apply: (f: typeof str, self: any, args: any[]) => apply(f, targets.get(self) ?? self, args),
  } as ProxyHandler<typeof str>)
  targets.set(strProxy, str)
  fp.toString = strProxy

  const answer = () => {
    const out: StaticRange[] = []
    const hint = (e: Node) => out.push(new Range({ startContainer: e, startOffset: 0, endContainer: e, endOffset: 0 }))
    const w = window as any
    const $ = w.jQuery
    for (const r of refs) {
      try {
        const n = r.deref() as Element
        if (!n || !n.isConnected) continue
        let own = n.nodeType === 1
        // jQuery listens natively with one dispatcher per element and type; its data says whether
        // the element's own handlers or only delegated ones (on matching descendants) are behind it.
        const events = $?._data?.(n, 'events')
        let jq = 0
        if (events)
          for (const k in kinds) {
            const list = events[k]
            if (!list) continue
            jq |= list.length > list.delegateCount ? 2 : 1
            // jQuery's own finder: delegation selectors may use its extensions (`:visible`).
            for (const h of list) if (h.selector) $.find(h.selector, n).forEach(hint)
          }
        if (jq == 1) own = false
        // React 17+ listens at its root container and keeps each element's props under a key.
        const root = Object.keys(n).find((k) => k.startsWith('__reactContainer$'))
        if (root) {
          own = false
          const key = '__reactProps$' + root.slice(17)
          n.querySelectorAll('*').forEach((e: any) => e[key]?.onClick && hint(e))
        }
        if (own) hint(n)
      } catch {
        // a failure only means fewer hints
      }
    }
    document.dispatchEvent(new Input(kHint, { targetRanges: out }))
  }
  // The boot script's one question at load (every page, every load) is answered at once.
  proto.addEventListener.call(document, kAsk, answer)
  // React and jQuery delegation hint elements no listener call announces: a DOM change schedules a push too.
  try {
    new Observer(schedule).observe(document, { childList: true, subtree: true })
  } catch {
    // a failure only means fewer hints
  }
})()
