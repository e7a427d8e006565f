/**
 * Selector generation for recorded steps, in order of resilience: test id, role with
 * accessible name, label or placeholder, short text, a non-generated id, a short CSS path, XPath,
 * and an index with a context hash last. Generated-looking ids and transient state classes are
 * skipped; every selector is checked at record time to match exactly this element.
 */
import type { ElementSnapshot, FlowSelector, FlowSelectors, SelectorLevel } from '../../core/flows/schema'
import { contextHash, kKeyAttributes } from '../../core/flows/similarity'
import { accessibleName, kTestIdAttributes, labelText, normalize, queryAll, roleOf } from '../locators'
import { kAvaUiAttr } from '../executor/dom'

/** Names longer than this are content, not labels; a selector built on them breaks on any edit. */
const kMaxNameChars = 80
/** Visible text used as a selector: short labels only. */
const kMaxTextChars = 40
/** Ancestors a CSS path may climb before it gives up on being short. */
const kMaxCssDepth = 5
/** Characters of surrounding text hashed for the index level. */
const kContextChars = 200

/**
 * Ids made by frameworks and builds (Element Plus `el-id-1024-12`, React `:r3:`, Ant Design
 * `rc_select_0`, MUI `mui-123`, hashes): they change with every render or release.
 */
export function isGeneratedId(id: string): boolean {
  if (!id || id.length > 60) return true
  if (/^\d/.test(id) || /^[:_]|:$/.test(id)) return true
  if (
    /^(ember|ext-gen|j_idt|react-|rc[-_]|el-id-|mui-|radix-|headlessui-|vs__|v-|yui_|gwt-|ui-id-|cdk-|mat-)/i.test(id)
  )
    return true
  if (/\d{3,}/.test(id) || /[-_:]\d+$/.test(id)) return true
  if (/[0-9a-f]{8}-?[0-9a-f]{4}/i.test(id)) return true
  // A segment mixing letters and several digits reads as a hash: `f-8d2k1x`, `btn_a9c3e`.
  return id.split(/[-_.]/).some((seg) => seg.length >= 4 && /[a-z]/i.test(seg) && (seg.match(/\d/g)?.length ?? 0) >= 2)
}

/**
 * Classes that say what state an element is in right now (focused, open, selected…), not what it
 * is: `is-focus`, `ant-select-open`, `el-select--focus`, `ng-touched`, `v-enter-active`.
 */
export function isTransientClass(cls: string): boolean {
  if (/^(is|has)-/.test(cls)) return true
  if (/^ng-(touched|untouched|dirty|pristine|valid|invalid|pending|animating)$/.test(cls)) return true
  if (/(^|[-_])(enter|leave)(-(from|to|active))?$/.test(cls)) return true
  return /(^|-|--|__)(active|focus|focused|focus-visible|hover|hovered|open|opened|selected|checked|disabled|visible|hidden|show|shown|expanded|collapsed|loading|animating|pressed|dragging|current|error|invalid|valid|dirty)$/.test(
    cls,
  )
}

/** Classes a build generates (CSS modules, CSS-in-JS): renamed on every release. */
export function isGeneratedClass(cls: string): boolean {
  return (
    /^(css|sc|jsx|emotion|styled|svelte)-[a-z0-9]+$/i.test(cls) ||
    /__[a-zA-Z0-9_-]{5}$/.test(cls) ||
    /^_[a-zA-Z0-9]{5,}$/.test(cls) ||
    /\d{3,}/.test(cls) ||
    /[a-z]\d[a-z]\d/i.test(cls)
  )
}

export function stableClasses(el: Element): string[] {
  const list = typeof el.className === 'string' ? el.className.split(/\s+/) : []
  return list.filter(
    (c) => c && c.length <= 40 && !isTransientClass(c) && !isGeneratedClass(c) && /^[a-zA-Z_][\w-]*$/.test(c),
  )
}

function cssString(value: string): string {
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\a ')}"`
}

/** An XPath string literal for any text (XPath 1.0 has no escapes: concat() around quotes). */
export function xpathString(value: string): string {
  if (!value.includes("'")) return `'${value}'`
  if (!value.includes('"')) return `"${value}"`
  return `concat(${value
    .split("'")
    .map((p) => `'${p}'`)
    .join(`, "'", `)})`
}

function roleString(value: string): string {
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`
}

function matches(selector: string): Element[] {
  try {
    return queryAll(selector).filter((el) => !el.closest(`[${kAvaUiAttr}]`))
  } catch {
    return []
  }
}

function uniqueFor(el: Element, selector: string): boolean {
  const all = matches(selector)
  return all.length === 1 && all[0] === el
}

const kFieldTags = new Set(['input', 'textarea', 'select'])

function testIdSelector(el: Element): string | null {
  for (const attr of kTestIdAttributes) {
    const v = el.getAttribute(attr)
    if (v && /^[\w.:-]+$/u.test(v)) return attr === 'data-testid' ? `testid:${v}` : `css:[${attr}=${cssString(v)}]`
  }
  return null
}

function roleSelector(el: Element): string | null {
  const role = roleOf(el)
  if (!role || role === 'generic' || role === 'presentation') return null
  const name = accessibleName(el, role)
  if (!name || name.length > kMaxNameChars) return null
  return `role:${role}[name=${roleString(name)}]`
}

function labelSelectors(el: Element): string[] {
  const tag = el.localName
  const out: string[] = []
  const aria = normalize(el.getAttribute('aria-label'))
  if (aria && aria.length <= kMaxNameChars) out.push(`css:${tag}[aria-label=${cssString(aria)}]`)
  if (!kFieldTags.has(tag)) return out
  const labels = (el as HTMLInputElement).labels
  const text = labelText(el)
  if (!labels?.length || !text || text.length > kMaxNameChars) return out
  const label = labels[0]
  if (!label.contains(el) && el.id)
    out.push(`xpath://${tag}[@id=//label[normalize-space(.)=${xpathString(text)}]/@for]`)
  if (label.contains(el)) out.push(`xpath://label[contains(normalize-space(.), ${xpathString(text)})]//${tag}`)
  return out
}

function placeholderSelector(el: Element): string | null {
  const p = el.getAttribute('placeholder')
  return p && p.length <= kMaxNameChars ? `css:${el.localName}[placeholder=${cssString(p)}]` : null
}

function textSelector(el: Element): string | null {
  if (kFieldTags.has(el.localName)) return null
  const text = normalize(el.textContent)
  if (!text || text.length > kMaxTextChars || /["\n]/.test(text)) return null
  return `text:"${text}"`
}

function idSelector(el: Element): string | null {
  return el.id && !isGeneratedId(el.id) ? `css:#${CSS.escape(el.id)}` : null
}

/** The part of a CSS path for one element: tag, stable classes or a naming attribute, nth-of-type last. */
function segment(el: Element, withNth: boolean): string {
  let s = el.localName
  const name = el.getAttribute('name')
  const type = el.getAttribute('type')
  if (name && kFieldTags.has(s)) s += `[name=${cssString(name)}]`
  else {
    const cls = stableClasses(el).slice(0, 2)
    if (cls.length) s += cls.map((c) => `.${CSS.escape(c)}`).join('')
    else if (type && s === 'input') s += `[type=${cssString(type)}]`
  }
  if (withNth && el.parentElement) {
    const same = [...el.parentElement.children].filter((c) => c.localName === el.localName)
    if (same.length > 1) s += `:nth-of-type(${same.indexOf(el) + 1})`
  }
  return s
}

/** A short CSS path: from the element up, anchored at a stable id when one is near; unique or null. */
function cssPath(el: Element): string | null {
  const parts: string[] = []
  let n: Element | null = el
  for (let depth = 0; n && depth < kMaxCssDepth; depth++, n = n.parentElement) {
    if (n !== el && n.id && !isGeneratedId(n.id)) {
      const sel = `#${CSS.escape(n.id)} ${parts.join(' > ')}`
      if (uniqueFor(el, `css:${sel}`)) return `css:${sel}`
    }
    for (const nth of [false, true]) {
      const candidate = [segment(n, nth), ...parts].join(' > ')
      if (uniqueFor(el, `css:${candidate}`)) return `css:${candidate}`
    }
    parts.unshift(segment(n, true))
    if (n.localName === 'body') break
  }
  return null
}

/** Positional XPath from the nearest stable id (or the document): `//*[@id='signup']/button[1]`. */
function xpathOf(el: Element): string | null {
  if (el.getRootNode() !== el.ownerDocument) return null // XPath does not reach into shadow roots
  const steps: string[] = []
  for (let n: Element | null = el; n; n = n.parentElement) {
    if (n !== el && n.id && !isGeneratedId(n.id)) return `xpath://*[@id=${xpathString(n.id)}]/${steps.join('/')}`
    const same = n.parentElement ? [...n.parentElement.children].filter((c) => c.localName === n!.localName) : [n]
    steps.unshift(`${n.localName}[${same.indexOf(n) + 1}]`)
  }
  return `xpath:/${steps.join('/')}`
}

/** The text around the element (its closest ancestor with text of its own), for the index level. */
export function contextText(el: Element): string {
  const own = normalize(el.textContent)
  for (let n = el.parentElement; n && n.localName !== 'body'; n = n.parentElement) {
    const text = normalize(n.textContent)
    if (text.length > own.length) return text.slice(0, kContextChars)
  }
  return ''
}

function indexSelector(el: Element): FlowSelector {
  const value = `css:${el.localName}`
  return {
    type: 'index',
    value,
    index: Math.max(0, matches(value).indexOf(el)),
    context_hash: contextHash(contextText(el)),
  }
}

/** What the element looks like, for the replay's similarity check. */
export function snapshotOf(el: Element): ElementSnapshot {
  const role = roleOf(el)
  const name = role ? accessibleName(el, role) : ''
  const text = (name || normalize(el.textContent)).slice(0, 100)
  const attributes: Record<string, string> = {}
  for (const k of kKeyAttributes) {
    const v = el.getAttribute(k)
    if (v !== null && v.length <= 500) attributes[k] = v
  }
  const testid = kTestIdAttributes.map((a) => el.getAttribute(a)).find((v) => v)
  if (testid) attributes['data-testid'] = testid
  return { tag: el.localName, ...(role ? { role } : {}), ...(text ? { text } : {}), attributes }
}

/** Every unique selector for the element, most resilient first; null for an element no selector finds. */
export function generateSelectors(el: Element): FlowSelectors | null {
  const found: FlowSelector[] = []
  const seen = new Set<string>()
  const add = (type: SelectorLevel, value: string | null) => {
    if (!value || seen.has(value)) return
    seen.add(value)
    if (uniqueFor(el, value)) found.push({ type, value })
  }
  add('testid', testIdSelector(el))
  add('role', roleSelector(el))
  for (const s of labelSelectors(el)) add('label', s)
  add('placeholder', placeholderSelector(el))
  add('text', textSelector(el))
  add('id', idSelector(el))
  add('css', cssPath(el))
  add('xpath', xpathOf(el))
  found.push(indexSelector(el))
  return { primary: found[0], fallback: found.slice(1) }
}
