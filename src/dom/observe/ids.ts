/**
 * Readable semantic ids and stable handles.
 *
 * The DOM has no backendNodeId without the `debugger` permission, so the stable handle is the
 * element object itself: a WeakMap from element to id keeps an element's id for as long as it
 * lives, whatever re-renders do around it, and a map from id to a WeakRef lets an id be resolved
 * back. An id is never handed to a second element while the first one is still alive, so an old
 * id either finds its own element or fails as stale; it is never silently re-pointed.
 *
 * One exception, said out loud in the step result: a control a page re-renders on every click (a
 * date picker's "Prev" arrow, a pagination "Next") leaves the page and an equivalent one takes its
 * place. Each scan remembers where every id stood: its kind and name (the id's base), its container
 * (the region) and its place (its rank among the twins of that base in that region). An id whose
 * element left the page resolves to the one element that now stands exactly there
 * (`replacementOf`), never to anything that differs in kind, name, place or container; twins
 * (a Delete in every row) only within a row or card with the same text. The record around it (its
 * row, card, pane or section, headings included) must read the same too: a detail pane that
 * re-rendered from a $12.40 lunch to a $9,800 wire keeps an "Approve" in the same place, and that
 * Approve is another record's (docs/executor.md, "Re-rendered controls").
 */
import { ObserveError, type Result } from './errors'
import { kIdPrefix, type ElementType } from '../../core/page/snapshot'
import { slug } from '../../core/page/text'

/** Longest disambiguating word taken from a row's text for `_near_<text>`. */
const kNearTextMax = 16

const idOf = new WeakMap<Element, string>()
const byId = new Map<string, WeakRef<Element>>()
/**
 * The elements the latest scan listed. The design this follows writes ids into the page as `data-agent-id`; Ava
 * keeps them here instead, in the content script's own world, so that a page cannot watch its
 * attributes change to learn when Ava reads it.
 */
let listed = new Set<Element>()
let revision = 0

/** Where an id's element stood at the last scan that saw it: kind + name, container, rank, tag. */
const placeOf = new Map<string, string>()
/** The last scan's elements by place, for `replacementOf`. */
let atPlace = new Map<string, WeakRef<Element>>()
/** The record text around each id's element when a scan last saw it, and around each place's element now. */
const recordOfId = new Map<string, string>()
let recordAtPlace = new Map<string, string>()

export interface IdRequest {
  el: Element
  type: ElementType
  /** Text the id is made from, by the priority ('' when only type + number is left). */
  idText: string
  /** Frame prefix (`frame_<id>_`) or ''. */
  prefix: string
  /** Region id without the frame prefix. */
  region: string
  /** Text around the element (its row, list item or card), for `_near_<text>`. */
  context: string
  /** Words of its own label, which cannot disambiguate it from its twins. */
  label: string
  /** The text of the record it belongs to (row, card, pane, section): a stand-in must be in the same one. */
  record?: string
}

export function nextRevision(): number {
  return ++revision
}

/** The id a request is named by before twins are told apart: prefix, type, label. */
function idBase(r: IdRequest): string {
  const text = slug(r.idText)
  return r.prefix + kIdPrefix[r.type] + (text ? `_${text}` : '')
}

/** Requests by the id they are named by before twins are told apart (idBase), in order. */
export function twinsByBase(reqs: IdRequest[]): Map<string, number[]> {
  const byBase = new Map<string, number[]>()
  for (let i = 0; i < reqs.length; i++) {
    const base = idBase(reqs[i])
    const list = byBase.get(base)
    if (list) list.push(i)
    else byBase.set(base, [i])
  }
  return byBase
}

/**
 * Gives every request an id: the one it already has, or a new unique one. `byBase` is
 * `twinsByBase(reqs)`, when the caller has it already.
 */
export function assignIds(reqs: IdRequest[], byBase = twinsByBase(reqs)): string[] {
  const ids = new Array<string>(reqs.length)
  const taken = new Set<string>()
  for (const [id, ref] of byId) {
    // Ids of collected elements are free again; ids of live ones stay reserved even when the
    // element has left the document, so a stale id can never resolve to a newcomer.
    if (ref.deref() === undefined) byId.delete(id)
    else taken.add(id)
  }
  for (let i = 0; i < reqs.length; i++) {
    const old = idOf.get(reqs[i].el)
    if (old !== undefined && byId.get(old)?.deref() === reqs[i].el) ids[i] = old
  }
  for (const [base, members] of byBase) {
    if (members.every((i) => ids[i] !== undefined)) continue
    resolveGroup(base, members, reqs, ids, taken)
  }
  for (let i = 0; i < reqs.length; i++) {
    const el = reqs[i].el
    if (idOf.get(el) !== ids[i]) {
      idOf.set(el, ids[i])
      byId.set(ids[i], new WeakRef(el))
    }
  }
  rememberPlaces(reqs, ids, byBase)
  return ids
}

/** The place key of request `i`: its id base, region and rank among its twins there, and its tag. */
function rememberPlaces(reqs: IdRequest[], ids: string[], byBase: Map<string, number[]>): void {
  const next = new Map<string, WeakRef<Element>>()
  const nextRecords = new Map<string, string>()
  for (const [base, members] of byBase) {
    const rank = new Map<string, number>()
    const perRegion = new Map<string, number>()
    for (const i of members) perRegion.set(reqs[i].region, (perRegion.get(reqs[i].region) ?? 0) + 1)
    for (const i of members) {
      const n = rank.get(reqs[i].region) ?? 0
      rank.set(reqs[i].region, n + 1)
      // Twins (a Delete in every row) are equivalent only within the same row or card: a table
      // that re-rendered with other rows has no equivalent of the old row's button. Twins with no
      // row text to tell them apart have no place at all.
      const twins = (perRegion.get(reqs[i].region) ?? 0) > 1
      if (twins && !reqs[i].context) {
        placeOf.delete(ids[i])
        continue
      }
      const key = `${base}|${reqs[i].prefix}${reqs[i].region}|${n}|${reqs[i].el.localName}${twins ? `|${reqs[i].context}` : ''}`
      placeOf.set(ids[i], key)
      recordOfId.set(ids[i], reqs[i].record ?? '')
      // The handle's own WeakRef: nothing new is made per element per scan.
      next.set(key, byId.get(ids[i])!)
      nextRecords.set(key, reqs[i].record ?? '')
    }
  }
  for (const id of placeOf.keys()) if (!byId.has(id)) placeOf.delete(id)
  for (const id of recordOfId.keys()) if (!placeOf.has(id)) recordOfId.delete(id)
  atPlace = next
  recordAtPlace = nextRecords
}

/**
 * The element that took the place of `id`'s element after a re-render, as the latest scan saw it:
 * same kind and name, same container, same rank, same tag, in the page, and in a record that reads
 * the same — or in another record when `otherRecord(el)` says a control may move between records
 * (a calendar's arrow: its month changes under it). The id is moved to it (the departed element
 * keeps none), so the next step and the next listing say the same id. Null when the id's element
 * is still here, was never placed, nothing stands in its place, or what stands there is another
 * record's.
 */
export function replacementOf(id: string, otherRecord: (el: Element) => boolean = () => false): Element | null {
  const key = placeOf.get(id)
  const old = byId.get(id)?.deref()
  if (!key || (old && old.isConnected)) return null
  const el = atPlace.get(key)?.deref()
  if (!el || el === old || !el.isConnected) return null
  if (recordAtPlace.get(key) !== recordOfId.get(id) && !otherRecord(el)) return null
  const had = idOf.get(el)
  if (had !== undefined && had !== id && byId.get(had)?.deref() === el) {
    byId.delete(had)
    placeOf.delete(had)
  }
  if (old) idOf.delete(old)
  idOf.set(el, id)
  byId.set(id, new WeakRef(el))
  if (old) listed.delete(old)
  listed.add(el)
  return el
}

/** Conflict rules, in order: region, nearby text, number. */
function resolveGroup(base: string, members: number[], reqs: IdRequest[], ids: string[], taken: Set<string>): void {
  const unlabeled = !reqs[members[0]].idText || !slug(reqs[members[0]].idText)
  const claim = (i: number, id: string): boolean => {
    if (taken.has(id)) return false
    ids[i] = id
    taken.add(id)
    return true
  }
  if (members.length === 1) {
    // Last rule: an element with nothing to name it by is its type and a number.
    if (!unlabeled && claim(members[0], base)) return
  }
  const pending = members.filter((i) => ids[i] === undefined)
  const open: number[] = []
  if (members.length > 1) {
    const perRegion = new Map<string, number>()
    for (const i of members) perRegion.set(reqs[i].region, (perRegion.get(reqs[i].region) ?? 0) + 1)
    const nearWords = members.map((i) => distinctWords(reqs[i]))
    const frequency = new Map<string, number>()
    for (const words of nearWords) for (const w of new Set(words)) frequency.set(w, (frequency.get(w) ?? 0) + 1)
    const wordsOf = new Map<number, string[]>()
    members.forEach((i, k) => wordsOf.set(i, nearWords[k]))
    for (const i of pending) {
      const region = reqs[i].region
      if (perRegion.get(region) === 1 && region !== 'page' && claim(i, `${base}_in_${region}`)) continue
      // The shortest word unique to this element's row: `742` rather than `Order_742`.
      let near: string | undefined
      for (const w of wordsOf.get(i)!)
        if (frequency.get(w) === 1 && (near === undefined || w.length < near.length)) near = w
      if (near && claim(i, `${base}_near_${near}`)) continue
      open.push(i)
    }
  } else open.push(...pending)
  let n = 1
  for (const i of open) {
    while (!claim(i, `${base}_${n}`)) n++
    n++
  }
}

const kWordSplit = /[\s,.;:!?()[\]{}"'`|/\\·•—–-]+/u

/** Candidate words for `_near_`: the row's words, minus the element's own label. */
function distinctWords(r: IdRequest): string[] {
  if (!r.context) return []
  const own = new Set(r.label.toLowerCase().split(kWordSplit))
  const out: string[] = []
  for (const word of r.context.split(kWordSplit)) {
    if (!word || own.has(word.toLowerCase())) continue
    const s = slug(word, kNearTextMax)
    if (s) out.push(s)
    if (out.length >= 12) break
  }
  return out
}

/** Records the elements a scan listed (nothing is written into the page). */
export function rememberListed(elements: Element[]): void {
  listed = new Set(elements)
}

/** The elements the latest scan listed, in its order. */
export function listedElements(): readonly Element[] {
  return [...listed]
}

/** The id the latest scans gave `el`, if it still holds one. */
export function idOfElement(el: Element): string | undefined {
  const id = idOf.get(el)
  return id !== undefined && byId.get(id)?.deref() === el ? id : undefined
}

/** The live element behind an id, or a typed error: never another element. */
export function safeResolveHandle(id: string): Result<Element> {
  const ref = byId.get(id)
  if (!ref) {
    return {
      ok: false,
      error: new ObserveError(
        'ELEMENT_NOT_FOUND',
        `No element was given the id "${id}" in this page; use an id from the latest snapshot.`,
        id,
      ),
    }
  }
  const el = ref.deref()
  if (!el || !el.isConnected || !el.ownerDocument.defaultView) {
    return {
      ok: false,
      error: new ObserveError(
        'ELEMENT_STALE',
        `The element "${id}" has left the page since it was indexed; observe the page again and use the new ids.`,
        id,
      ),
    }
  }
  return { ok: true, value: el }
}

/** `safeResolveHandle` that throws the ObserveError. */
export function resolveHandle(id: string): Element {
  const r = safeResolveHandle(id)
  if (!r.ok) throw r.error
  return r.value
}

/** Forgets all ids (there is nothing in the page to clear). */
export function clearAgentIds(): void {
  listed = new Set()
  byId.clear()
  placeOf.clear()
  atPlace = new Map()
  recordOfId.clear()
  recordAtPlace = new Map()
}

const frameIds = new WeakMap<Element, string>()
const usedFrameIds = new Map<string, WeakRef<Element>>()
let frameCounter = 0

/** A stable short id for an iframe: its name or id when readable, else `f<n>`. */
export function frameIdFor(frame: Element): string {
  const known = frameIds.get(frame)
  if (known) return known
  const named = (frame.getAttribute('name') || frame.id || '')
    .replace(/[^A-Za-z0-9-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 16)
  let id = named
  const live = (k: string): boolean => {
    const el = usedFrameIds.get(k)?.deref()
    return el !== undefined && el !== frame
  }
  if (!id || live(id)) {
    do id = `f${++frameCounter}`
    while (live(id))
  }
  frameIds.set(frame, id)
  usedFrameIds.set(id, new WeakRef(frame))
  return id
}

/** Splits `frame_<id>_<rest>` into the frame prefix and the id inside that frame. */
export function splitFrameId(id: string): { frame: string; local: string } | null {
  const m = /^(frame_[A-Za-z0-9-]+)_(.+)$/.exec(id)
  return m ? { frame: m[1], local: m[2] } : null
}
