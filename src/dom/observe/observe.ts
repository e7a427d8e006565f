/**
 * `observe()`: one scan of the page turned into a PageSnapshot.
 * Order matters for speed: every DOM read happens in one pass, and nothing is written into the page.
 */
import { extractContent } from './content'
import { assignIds, rememberListed, nextRevision, twinsByBase, type IdRequest } from './ids'
import {
  computeName,
  groupHeader,
  LabelIndex,
  NameCache,
  referencedElements,
  referencedText,
  visibleText,
  type ComputedName,
} from '../words'
import { classify, inferIntents, pageFeatures, summarize } from './page-type'
import { cardTexts, itemText, scanSteps, type Candidate, type RawScan } from './scan'
import { Attrs, readAttrs, readState } from './state'
import {
  kActions,
  type ElementRecord,
  type ElementRelation,
  type ItemGroup,
  type PageSnapshot,
  type Region,
} from '../../core/page/snapshot'
import { clip, normalizeText, truncate } from '../../core/page/text'

/** Longest class string kept per record: enough to recognise a component library's widget. */
const kClassMax = 60

/** What `observe()` scans; page-side only, since it can hold a node (the snapshot never does). */
export interface ObserveOptions {
  /** Scan only below this node (default: the whole document). */
  root?: Document | Element
  /** What the person asked for; used by `serialize` and kept for intents. */
  request?: string
  budgetTokens?: number
  /** Score content sections with the attention model (default true). */
  includeContent?: boolean
}

export function observe(options: ObserveOptions = {}): PageSnapshot {
  const steps = observeSteps(options)
  for (;;) {
    const next = steps.next()
    if (next.done) return next.value
  }
}

/**
 * A task longer than this blocks what a person does on the page (the browser's long-task
 * threshold, 50 ms, with room for the part that runs past it, and on a first read for the
 * evaluation of the reader's code in the same task).
 */
export const kReadSliceMs = 30

/**
 * `observe()` that gives the page its turn between parts of the read once a part has run longer
 * than `sliceMs` (docs/page-representation.md, "Reading without blocking"): on a page read in
 * less time it runs exactly as `observe()`, with no wait added. The walk of the DOM is cut every
 * 256 elements of its upper levels; naming and recording the controls every 128 of them; the
 * page's text sections are a part of their own.
 */
export async function observeYielding(options: ObserveOptions = {}, sliceMs = kReadSliceMs): Promise<PageSnapshot> {
  const steps = observeSteps(options)
  let sliceStart = performance.now()
  for (;;) {
    const next = steps.next()
    if (next.done) return next.value
    if (performance.now() - sliceStart > sliceMs) {
      await yieldToPage()
      sliceStart = performance.now()
    }
  }
}

/** Lets the page's queued tasks (input, rendering) run: `scheduler.yield()` where the browser has it, else a new task. */
export function yieldToPage(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler
  if (scheduler?.yield) return scheduler.yield()
  return new Promise((resolve) => {
    const channel = new MessageChannel()
    channel.port1.onmessage = () => resolve()
    channel.port2.postMessage(null)
  })
}

/** Controls named (or recorded) between two chances to give the page its turn. */
const kYieldEvery = 128

/** The read, in parts: each `yield` is a point where the page may be given its turn. */
function* observeSteps(options: ObserveOptions): Generator<void, PageSnapshot> {
  const t0 = performance.now()
  let paused = 0
  const root = options.root ?? document
  // The DOM walk pauses every few hundred elements of the upper levels (scan.ts `scanSteps`).
  const walk = scanSteps(root, { includeContent: options.includeContent !== false })
  let raw: RawScan
  for (;;) {
    const step = walk.next()
    if (step.done) {
      raw = step.value
      break
    }
    const tw = performance.now()
    yield
    paused += performance.now() - tw
  }
  const tp = performance.now()
  yield
  paused += performance.now() - tp
  const candidates = raw.candidates.filter((c) => !c.drop)
  const labels = new LabelIndex()
  // One cache of style answers for every name of this scan, with the scan's own stylesheet tests.
  const nameCache = new NameCache()
  for (const ds of raw.docs)
    nameCache.setRules(ds.doc, {
      display: ds.cursorRule,
      hide: ds.hideRule,
      generated: ds.generatedRule,
      gone: ds.gone,
    })
  const contexts = new Map<Element, string>()
  const records = new Map<Element, string>()
  const names: ComputedName[] = []
  const attrsOf: Attrs[] = []
  const reqs: IdRequest[] = []
  let k = 0
  for (const c of candidates) {
    if (++k % kYieldEvery === 0) {
      const t = performance.now()
      yield
      paused += performance.now() - t
    }
    const attrs = new Attrs(c.el)
    const name = computeName(c.el, c.tag, c.role, labels, c.label, attrs, nameCache)
    names.push(name)
    attrsOf.push(attrs)
    let context = ''
    if (c.item) {
      context = contexts.get(c.item) ?? ''
      if (!contexts.has(c.item)) {
        context = itemText(c.item)
        contexts.set(c.item, context)
      }
    }
    reqs.push({
      el: c.el,
      type: c.type,
      idText: name.source === 'none' ? '' : name.name,
      prefix: c.ds.prefix,
      region: c.region.id.slice(c.ds.prefix.length),
      context,
      label: name.name,
      record: recordText(c, records),
    })
  }
  const byBase = twinsByBase(reqs)
  addCardContexts(reqs, byBase)
  const ids = assignIds(reqs, byBase)
  const idByEl = new Map<Element, string>()
  candidates.forEach((c, i) => idByEl.set(c.el, ids[i]))

  const tr = performance.now()
  yield
  paused += performance.now() - tr
  const elements: ElementRecord[] = []
  for (let i = 0; i < candidates.length; i++) {
    if (i > 0 && i % kYieldEvery === 0) {
      const t = performance.now()
      yield
      paused += performance.now() - t
    }
    elements.push(toRecord(candidates[i], ids[i], names[i], attrsOf[i], reqs[i].context, idByEl, labels))
  }
  const regionCounts = new Map<string, number>()
  for (const e of elements) regionCounts.set(e.region, (regionCounts.get(e.region) ?? 0) + 1)
  const regions: Region[] = raw.regions.map((r) => ({
    id: r.id,
    kind: r.kind,
    label: r.label,
    bounds: regionBounds(r.el, r.doc, raw),
    ...(r.parent ? { parent: r.parent.id } : {}),
    elements: regionCounts.get(r.id) ?? 0,
  }))
  const groups: ItemGroup[] = raw.groups.map((g) => ({
    id: g.id,
    kind: g.kind,
    region: g.region.id,
    items: g.items,
    label: groupLabel(g.container),
  }))
  const tc = performance.now()
  yield
  paused += performance.now() - tc
  const { sections: content, textChars } =
    options.includeContent === false ? { sections: [], textChars: 0 } : extractContent(raw)

  rememberListed(candidates.map((c) => c.el))

  const doc = raw.top.doc
  const loc = { url: doc.URL, title: normalizeText(doc.title ?? '') }
  const features = pageFeatures(loc, elements, content, groups, regions, {
    paragraphs: raw.paragraphs,
    charts: raw.charts,
    hasArticle: raw.hasArticle,
    textChars,
  })
  const { type } = classify(features)
  return {
    url: loc.url,
    title: loc.title,
    revision: nextRevision(),
    viewport: {
      width: raw.viewport.width,
      height: raw.viewport.height,
      scrollX: raw.top.scrollX,
      scrollY: raw.top.scrollY,
    },
    pageType: type,
    intents: inferIntents(type, elements, groups),
    regions,
    summary: summarize(type, loc.title, elements, groups, regions),
    elements,
    content,
    groups,
    frames: raw.frames,
    lazyRegions: raw.lazy,
    // The time spent reading, not the time the page had its turn.
    stats: {
      elements: raw.visited,
      interactive: elements.length,
      scanMs: Math.round((performance.now() - t0 - paused) * 100) / 100,
    },
  }
}

/** Containers that hold one record: a row, an item, a card, a pane, a section, a dialog, a form. */
const kRecord =
  'tr, li, [role=row], [role=listitem], article, [role=article], section, form, fieldset, dialog, [role=dialog], [role=alertdialog], [role=tabpanel], [role=region], [role=group], [class*=card], [class*=pane], [class*=panel], [class*=detail]'

/**
 * All the text of the record a control belongs to (its row or item, else the nearest card, pane,
 * section or dialog, else its region), read once per container per scan: a control re-rendered
 * in its place stands in for the old one only inside a record that reads the same (ids.ts
 * `replacementOf`). The whole text, not its first words: two records may differ only in an amount.
 */
function recordText(c: Candidate, cache: Map<Element, string>): string {
  const box = c.item ?? c.el.parentElement?.closest(kRecord) ?? c.region.el ?? c.ds.doc.body
  if (!box) return ''
  let text = cache.get(box)
  if (text === undefined) cache.set(box, (text = normalizeText(box.textContent ?? '')))
  return text
}

/**
 * The card text each twin outside rows was told apart by (addCardContexts). It is kept with the
 * twin, as its id is, rather than read again every scan: a grid of 2,000 cards would pay a
 * text walk per card per scan.
 */
let cardContextOf = new WeakMap<Element, string>()

/**
 * Twins outside rows (a product card's Buy button) take their card's text as their context, as a
 * row's controls take the row's ("商品A旁的删除"): for `_near_`, relevance and the listing.
 * A group with a twin new to it reads every card again, since the newcomer may split one.
 */
function addCardContexts(reqs: IdRequest[], byBase: Map<string, number[]>): void {
  const cards = new Map<Element, string>()
  for (const members of byBase.values()) {
    if (members.length < 2) continue
    if (members.every((i) => reqs[i].context || cardContextOf.has(reqs[i].el))) {
      for (const i of members) reqs[i].context ||= cardContextOf.get(reqs[i].el) ?? ''
      continue
    }
    const texts = cardTexts(
      members.map((i) => reqs[i].el),
      cards,
    )
    members.forEach((i, k) => {
      if (reqs[i].context) return
      reqs[i].context = texts[k]
      cardContextOf.set(reqs[i].el, texts[k])
    })
  }
}

/** Forgets the card texts twins were told apart by, with their ids (clearAgentIds). */
export function forgetCardContexts(): void {
  cardContextOf = new WeakMap()
}

function toRecord(
  c: Candidate,
  id: string,
  name: ComputedName,
  attrs: Attrs,
  context: string,
  idByEl: Map<Element, string>,
  labels: LabelIndex,
): ElementRecord {
  const el = c.el
  const record: ElementRecord = {
    id,
    type: c.type,
    role: c.role,
    tagName: c.tag,
    className: clip(attrs.get('class') ?? '', kClassMax),
    // Both texts are already whitespace-collapsed: only the cut is left.
    text: truncate(visibleText(el, c.tag, attrs, name)),
    label: name.source === 'name' ? '' : truncate(name.name),
    actions: kActions[c.type],
    state: readState(el, c.tag, c.type, c.ds.active, attrs),
    region: c.region.id,
    bounds: c.bounds,
    inViewport: c.inViewport,
    relations: relationsOf(c, attrs, idByEl, labels),
    attrs: readAttrs(c.tag, attrs),
  }
  // A name read off an icon is a guess: the listing says so (docs/page-representation.md).
  if (name.source === 'icon') record.guessed = true
  if (context) record.context = clip(context)
  if (c.item && c.group) {
    record.group = c.group.id
    record.item = c.group.index.get(c.item)
  }
  if (c.ds.prefix) record.frame = c.ds.prefix.slice(0, -1)
  return record
}

function relationsOf(c: Candidate, attrs: Attrs, idByEl: Map<Element, string>, labels: LabelIndex): ElementRelation[] {
  const out: ElementRelation[] = []
  const el = c.el
  const label = labels.labelFor(el, attrs.get('id')) ?? (c.label && c.label !== el ? c.label : undefined)
  if (label) out.push({ kind: 'label-for', text: clip(label.textContent) })
  const controls = attrs.get('aria-controls')
  const described = attrs.get('aria-describedby')
  if (!controls && !described) return out
  if (controls) {
    for (const target of referencedElements(el, controls)) {
      const targetId = idByEl.get(target)
      out.push(
        targetId
          ? { kind: 'controls', targetId }
          : { kind: 'controls', text: clip(target.getAttribute('aria-label') || target.textContent) },
      )
    }
  }
  if (described) {
    const text = referencedText(el, described)
    if (text.trim()) out.push({ kind: 'described-by', text: clip(text) })
  }
  return out
}

function regionBounds(el: Element | null, ds: RawScan['top'], raw: RawScan) {
  if (!ds.layout) return { x: 0, y: 0, width: 0, height: 0 }
  if (!el) {
    const html = ds.doc.documentElement
    return {
      x: Math.round(ds.ox + raw.top.scrollX),
      y: Math.round(ds.oy + raw.top.scrollY),
      width: html.scrollWidth,
      height: html.scrollHeight,
    }
  }
  const r = el.getBoundingClientRect()
  return {
    x: Math.round(ds.ox + r.left + raw.top.scrollX),
    y: Math.round(ds.oy + r.top + raw.top.scrollY),
    width: Math.round(r.width),
    height: Math.round(r.height),
  }
}

function groupLabel(container: Element): string {
  return clip(groupHeader(container))
}
