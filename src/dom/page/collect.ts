/**
 * One round of reading a feed or table (the loop is core's, src/core/page/collect.ts):
 * find the repeated items and the box that scrolls them, read what is drawn, scroll once, let the
 * page bring what comes next. The box and the items' parent are kept per collection (`session`),
 * so every round reads the same list; a list the page rebuilt is found again.
 */
import type { CollectedItem, CollectRound } from '../../core/page/collect'
import { viewOf } from '../executor/dom'

/** Each round scrolls this share of the box's height: views overlap, so no item falls between two. */
const kScrollShare = 0.85
/** After a scroll, the page is read once nothing has changed in the box for this long. */
const kQuietMs = 250
/** …or after this long if nothing changed at all (a virtualised list re-renders at once). */
const kNoChangeMs = 600
/** At the bottom a feed fetches more: its growth is waited for this long before the list counts as ended. */
const kEndWaitMs = 2_500
/**
 * A feed still loading when the step comes (its first page fetched after the document was ready):
 * its list is waited for this long before the step says there is none.
 */
const kFirstDrawMs = 5_000
/** Longest text kept per item (a post, a row): enough to sum it up, not a whole article. */
const kItemTextMax = 2_000
/** Elements looked at to find the list when the step names none. */
const kMaxScan = 6_000
/** A group needs this many like children to be a list. */
const kMinItems = 3
/** Attributes sites put on an item that stay with it when it is drawn again, best first. */
const kKeyAttrs = [
  'data-id',
  'data-key',
  'data-item-id',
  'data-post-id',
  'data-row-key',
  'data-rowid',
  'data-index',
  'aria-posinset',
  'aria-rowindex',
  'id',
]

interface Session {
  group: WeakRef<Element>
  scroller: WeakRef<Element>
  /** What the step named, to find the list again if the page rebuilt it. */
  root?: WeakRef<Element>
}
const sessions = new Map<string, Session>()
const kMaxSessions = 8

/**
 * Reads the items now drawn and, unless `first`, scrolls once before. `named` is the element the
 * step pointed at (the feed, the table, or the box that scrolls them).
 */
export async function collectRound(
  session: string,
  first: boolean,
  named: Element | null,
  isOurs: (el: Element) => boolean,
): Promise<CollectRound> {
  let s = sessions.get(session)
  let group = s?.group.deref()
  if (!s || !group?.isConnected) {
    const root = s?.root?.deref() ?? named ?? undefined
    const scope = root?.isConnected ? root : undefined
    const find = () => findGroup(scope, isOurs) ?? undefined
    // A feed still fetching its first posts: what is drawn now is the page's other lists (its menu,
    // its trends), so the list is looked for once the page says it has loaded.
    if (first && loading(scope)) await until(() => !loading(scope), kFirstDrawMs)
    group = find() ?? (first ? await until(find, kFirstDrawMs) : undefined)
    if (!group) return { items: [], moved: false, container: '' }
    s = {
      group: new WeakRef(group),
      scroller: new WeakRef(scrollerOf(named ?? group)),
      ...(named ? { root: new WeakRef(named) } : {}),
    }
    sessions.set(session, s)
    if (sessions.size > kMaxSessions) sessions.delete(sessions.keys().next().value!)
  }
  const scroller = s.scroller.deref() ?? scrollerOf(group)
  let moved = false
  if (!first) {
    const before = scroller.scrollTop
    const doc = scroller.ownerDocument
    const height =
      scroller === doc.scrollingElement
        ? (doc.defaultView?.innerHeight ?? scroller.clientHeight)
        : scroller.clientHeight
    const grown = scroller.scrollHeight
    scroller.scrollTop = before + Math.max(1, Math.round(height * kScrollShare))
    moved = Math.abs(scroller.scrollTop - before) >= 1
    await settle(scroller, !moved || atBottom(scroller), grown)
    // A feed that grew at its end: the box can go further now.
    if (!moved && scroller.scrollHeight > grown) {
      scroller.scrollTop = before + Math.max(1, Math.round(height * kScrollShare))
      moved = Math.abs(scroller.scrollTop - before) >= 1
    }
    // The list may have been rebuilt by the scroll.
    if (!group.isConnected) {
      const again = findGroup(s.root?.deref(), isOurs)
      if (again) {
        group = again
        s.group = new WeakRef(again)
      }
    }
  }
  const table = group.closest('table')
  const columns = table ? headings(table) : undefined
  return {
    items: itemsOf(group, isOurs),
    ...(columns?.length ? { columns } : {}),
    moved,
    container: nameOf(table ?? group),
  }
}

/** The list's items: a table's rows, else the like children of the group. */
function itemsOf(group: Element, isOurs: (el: Element) => boolean): CollectedItem[] {
  const out: CollectedItem[] = []
  for (const el of likeChildren(group)) {
    if (isOurs(el) || !el.getClientRects().length) continue
    const text = clean((el as HTMLElement).innerText ?? el.textContent ?? '')
    if (!text) continue
    const row = el.matches('tr, [role=row]')
    const cells = row
      ? [...el.querySelectorAll(':scope > td, :scope > th, :scope > [role=cell], :scope > [role=gridcell]')].map((c) =>
          clean((c as HTMLElement).innerText ?? c.textContent ?? ''),
        )
      : undefined
    // A heading row inside the body is the table's, not an item.
    if (row && el.querySelector(':scope > td, :scope > [role=cell], :scope > [role=gridcell]') === null) continue
    // A card's lines are its parts: the blocks a field map points at (docs/extraction.md).
    const parts = row ? undefined : ((el as HTMLElement).innerText ?? '').split('\n').map(clean).filter(Boolean)
    out.push({
      key: keyOf(el, text),
      text,
      ...(cells ? { cells } : {}),
      ...(parts && parts.length > 1 ? { parts } : {}),
    })
  }
  return out
}

/** Whitespace folded, clipped to kItemTextMax. */
function clean(text: string): string {
  const t = text.replace(/\s+/g, ' ').trim()
  return t.length > kItemTextMax ? `${t.slice(0, kItemTextMax)}…` : t
}

/** The item's own id when the site gave it one; else its text (two items that read alike are one). */
function keyOf(el: Element, text: string): string {
  for (const a of kKeyAttrs) {
    const v = el.getAttribute(a)
    if (v) return `${a}=${v}`
  }
  return `text=${text}`
}

/** The children of `group` that are its items: those of its most common kind (tag, role, first class). */
function likeChildren(group: Element): Element[] {
  if (group.matches('table')) return [...group.querySelectorAll(':scope > tbody > tr, :scope > tr')]
  const kinds = new Map<string, Element[]>()
  for (const c of group.children) {
    const k = kindOf(c)
    if (!k) continue
    const list = kinds.get(k) ?? []
    list.push(c)
    kinds.set(k, list)
  }
  let best: Element[] = []
  for (const list of kinds.values()) if (list.length > best.length) best = list
  return best
}

function kindOf(el: Element): string | null {
  const tag = el.localName
  if (tag === 'script' || tag === 'style' || tag === 'template' || tag === 'link' || tag === 'meta') return null
  // The first class too: a list's loading line or "show more" row is no item, though a `div` like them.
  return `${tag}|${el.getAttribute('role') ?? ''}|${el.classList[0] ?? ''}`
}

/**
 * The list to read: inside what the step named, or on the whole page, the element whose like
 * children are most numerous (a feed's posts, a table's rows, a virtualised list's drawn items),
 * those with text only; a table counts its rows, a `role=feed` its articles.
 */
function findGroup(root: Element | undefined, isOurs: (el: Element) => boolean): Element | null {
  const doc = root?.ownerDocument ?? document
  const start = root ?? doc.body
  if (!start) return null
  if (start.matches('table')) return start
  const tables = start.matches('tbody, thead') ? [start.closest('table')!] : []
  if (tables[0]) return tables[0]
  let best: { el: Element; score: number } | null = null
  const queue: Element[] = [start]
  let seen = 0
  while (queue.length && seen < kMaxScan) {
    const el = queue.shift()!
    seen++
    if (isOurs(el)) continue
    for (const c of el.children) queue.push(c)
    const score = groupScore(el)
    if (score > (best?.score ?? 0)) best = { el, score }
  }
  if (!best) return null
  // A table's body: the table itself, so its headings come along.
  return best.el.matches('tbody') ? (best.el.closest('table') ?? best.el) : best.el
}

function groupScore(el: Element): number {
  if (el.children.length < kMinItems) return 0
  const items = likeChildren(el).filter((c) => (c.textContent ?? '').trim())
  if (items.length < kMinItems) return 0
  // Lists made to be read as one get a little more than a row of buttons of the same count.
  const semantic = el.matches('[role=feed], tbody, table, [role=grid], [role=table], [role=list], ul, ol') ? 1.5 : 1
  const texty = items.some((c) => (c.textContent ?? '').trim().length > 20) ? 1.2 : 1
  return items.length * semantic * texty
}

/** The box that scrolls the list: its nearest scrolling ancestor, else the page. */
function scrollerOf(el: Element): Element {
  const doc = el.ownerDocument
  for (let n: Element | null = el; n && n !== doc.body && n !== doc.documentElement; n = n.parentElement) {
    const oy = viewOf(n).getComputedStyle(n).overflowY
    if ((oy === 'auto' || oy === 'scroll') && n.scrollHeight > n.clientHeight + 1) return n
  }
  return doc.scrollingElement ?? doc.documentElement
}

function atBottom(scroller: Element): boolean {
  const doc = scroller.ownerDocument
  const height =
    scroller === doc.scrollingElement ? (doc.defaultView?.innerHeight ?? scroller.clientHeight) : scroller.clientHeight
  return scroller.scrollTop + height >= scroller.scrollHeight - 2
}

/**
 * Waits for what the scroll brings: the box quiet for kQuietMs after its last change, or
 * kNoChangeMs with no change at all; at the bottom (`end`), up to kEndWaitMs for the box to grow.
 */
function settle(scroller: Element, end: boolean, heightBefore: number): Promise<void> {
  const doc = scroller.ownerDocument
  const watched = scroller === doc.scrollingElement ? doc.body : scroller
  return new Promise((resolve) => {
    let quiet: ReturnType<typeof setTimeout> | undefined
    const done = () => {
      observer.disconnect()
      clearTimeout(quiet)
      clearTimeout(none)
      clearTimeout(cap)
      resolve()
    }
    const observer = new MutationObserver(() => {
      if (end && scroller.scrollHeight <= heightBefore) return
      clearTimeout(none)
      clearTimeout(quiet)
      quiet = setTimeout(done, kQuietMs)
    })
    observer.observe(watched, { childList: true, subtree: true, characterData: true })
    const none = setTimeout(done, end ? kEndWaitMs : kNoChangeMs)
    const cap = setTimeout(done, kEndWaitMs + kQuietMs)
  })
}

/**
 * The page says it is still fetching: a busy region, a progress bar, or a line that reads only
 * "Loading…" (English or Chinese), drawn. Ava's own elements are not the page's.
 */
function loading(scope: Element | undefined): boolean {
  const within = scope ?? document.body
  if (!within) return false
  for (const el of within.querySelectorAll('[aria-busy="true"], [role="progressbar"], progress'))
    if (drawn(el)) return true
  const walker = document.createTreeWalker(within, NodeFilter.SHOW_TEXT)
  for (let n = walker.nextNode(), seen = 0; n && seen < kMaxScan; n = walker.nextNode(), seen++) {
    const text = n.nodeValue?.trim()
    if (text && text.length < 24 && kLoadingText.test(text) && n.parentElement && drawn(n.parentElement)) return true
  }
  return false
}
const kLoadingText = /^(loading|loading more|加载中|正在加载|載入中)\s*(…|\.{3}|。{3})?$/i

function drawn(el: Element): boolean {
  const r = el.getBoundingClientRect()
  return r.width > 0 && r.height > 0
}

/** `test`'s first truthy answer, looked for again after each burst of changes; its last answer after `ms`. */
function until<T>(test: () => T, ms: number): Promise<T> {
  return new Promise((resolve) => {
    let burst: ReturnType<typeof setTimeout> | undefined
    const end = (v: T) => {
      observer.disconnect()
      clearTimeout(burst)
      clearTimeout(cap)
      resolve(v)
    }
    const observer = new MutationObserver(() => {
      if (burst) return
      burst = setTimeout(() => {
        burst = undefined
        const v = test()
        if (v) end(v)
      }, 100)
    })
    observer.observe(document.documentElement, {
      childList: true,
      subtree: true,
      characterData: true,
      attributes: true,
    })
    const cap = setTimeout(() => end(test()), ms)
  })
}

/** A table's column headings (its first header row). */
function headings(table: Element): string[] {
  const row =
    table.querySelector(':scope > thead > tr') ??
    [...table.querySelectorAll(':scope > tbody > tr, :scope > tr')].find(
      (r) => r.querySelector('th') && !r.querySelector('td'),
    )
  return row ? [...row.children].map((c) => clean((c as HTMLElement).innerText ?? c.textContent ?? '')) : []
}

/** The list named for the person and the model: its tag, id or label, from the page. */
function nameOf(el: Element): string {
  const label = el.getAttribute('aria-label') ?? (el.id ? `#${el.id}` : '')
  const cls = el.classList[0] ? `.${el.classList[0]}` : ''
  return `${el.localName}${label.startsWith('#') ? label : cls}${label && !label.startsWith('#') ? ` "${label.slice(0, 60)}"` : ''}`
}
