/**
 * The page's index of interactive elements and their texts, kept between calls until the page
 * mutates: the cheap substring filter runs over it before any scoring.
 */
import { nameOrGuess, roleOf, type SearchRoot } from '../../locators'
import { cssPath } from '../dom'
import { idOfElement, listedElements } from '../../observe'
import {
  bareIconWords,
  editablePlaceholder,
  FieldLabels,
  glyphWords,
  kFieldWidget,
  kInteractive,
  partWords,
} from '../../words'
import { kPicture } from './kind'

export function candidateId(el: Element): string {
  return idOfElement(el) ?? `css:${cssPath(el)}`
}

/**
 * The interactive elements under `root`, in document order: those `kInteractive` matches and those
 * Observe listed for their listeners or cursor, which no selector can find because
 * Ava writes nothing into the page.
 */
export function interactiveIn(root: Document | Element | ShadowRoot): Element[] {
  const found = [...root.querySelectorAll(kInteractive)]
  const known = new Set(found)
  const extra = listedElements().filter((el) => !known.has(el) && el.isConnected && root.contains(el))
  if (!extra.length) return found
  return [...found, ...extra].sort((a, b) => (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1))
}

export interface Entry {
  el: Element
  field: boolean
  /** `haystack` up to the value, and after it; lower case. */
  before: string
  after: string
  /** The value `hay` was made with; a typed value changes no attribute, so it is re-read per call. */
  value: string
  hay: string
  /** `hay` with spaced Chinese joined ("提 交"), made on first need. */
  hayHan?: string
  own?: ReadonlySet<string>
  near?: Set<string>
  /** Its role, read on first need (DOM-only, so valid as long as the entry). */
  role?: string
}

/**
 * The interactive elements of a document's search roots with their stage-1 texts, kept between
 * calls (the locate bench: a locate that re-reads 5,000 elements' text and rows costs 25–40 ms; one
 * that reuses them costs a few). Valid while no search root has mutated: one MutationObserver
 * watches every root (document, open shadow roots, same-origin frames) and `takeRecords()` is
 * asked before each use, so a change made in the same task as the call is seen too. The root
 * list itself is walked afresh on every call, because a shadow root attached to an element that
 * was already in the page (a custom element upgraded late) mutates nothing. The observer
 * disconnects at the first change: one record is enough to drop the index, and a page that keeps
 * changing pays for no more.
 */
export class PageIndex {
  private roots: SearchRoot[] = []
  entries: Entry[] = []
  /** Rows' spaced text, shared by the five controls of a row. */
  rowCache = new Map<Element, string>()
  labels = new FieldLabels()
  private observer: MutationObserver | null = null
  private dirty = true

  /** The entries for these roots, rebuilt when a root changed or the root list differs. */
  current(roots: SearchRoot[]): Entry[] {
    if (this.observer && this.observer.takeRecords().length) this.invalidate()
    if (this.dirty || roots.length !== this.roots.length || roots.some((r, i) => r !== this.roots[i])) this.build(roots)
    return this.entries
  }

  private invalidate(): void {
    this.dirty = true
    this.observer?.disconnect()
    this.observer = null
  }

  private build(roots: SearchRoot[]): void {
    this.invalidate()
    this.roots = roots
    this.entries = []
    this.rowCache = new Map()
    this.labels = new FieldLabels()
    const seen = new Set<Element>()
    for (const root of roots) {
      // Pictures with words a person reads (alt text) are named things too: "the Python logo".
      const pictures = [...root.querySelectorAll(kPicture)].filter((p) => !p.closest(kInteractive))
      for (const el of [...interactiveIn(root), ...pictures]) {
        if (seen.has(el)) continue
        seen.add(el)
        // A label is a target only for the checkbox or radio it toggles; a text field's label is its name.
        if (
          el.localName === 'label' &&
          !/^(checkbox|radio)$/.test(((el as HTMLLabelElement).control as HTMLInputElement | null)?.type ?? '')
        )
          continue
        const field =
          /^(input|select|textarea)$/.test(el.localName) ||
          el.matches(`[role=combobox],[role=switch],[role=checkbox],[role=radio],${kFieldWidget}`)
        const text = el.textContent ?? ''
        const extra = `${bareIconWords(el, text)} ${partWords(el, el.getAttribute('role') ?? '')} ${glyphWords(el)} ${el.hasAttribute('contenteditable') || el.getAttribute('role') === 'textbox' ? editablePlaceholder(el) : ''}`
        const before =
          `${el.getAttribute('aria-label') ?? ''} ${el.getAttribute('placeholder') ?? ''} ${el.getAttribute('title') ?? ''} ${el.getAttribute('name') ?? ''} ${el.id} ${extra} `.toLowerCase()
        // An icon-only control shows no text: its guessed name stands in (dom/words/accname.ts).
        const after = ` ${text.trim() || field ? text : nameOrGuess(el, roleOf(el))}`.toLowerCase()
        const value = valueOf(el)
        this.entries.push({ el, field, before, after, value, hay: before + value.toLowerCase() + after })
      }
    }
    const MO = roots[0] ? viewOf(roots[0]).MutationObserver : undefined
    if (!MO) return
    const observer = new MO(() => this.invalidate())
    for (const root of roots)
      observer.observe(root, { subtree: true, childList: true, attributes: true, characterData: true })
    this.observer = observer
    this.dirty = false
  }
}

export function valueOf(el: Element): string {
  return `${(el as HTMLInputElement).value ?? ''}`
}

export function viewOf(root: SearchRoot): Window & typeof globalThis {
  const doc = root.nodeType === 9 ? (root as Document) : root.ownerDocument
  return (doc?.defaultView ?? window) as Window & typeof globalThis
}

export const indexes = new WeakMap<Document, PageIndex>()
