import { alternativesOf, type Flow, type FlowSelector, type FlowStep } from './schema'
import { parseSource } from './variables'
import { flowStep } from '../vocabulary'

/**
 * Export to the Chrome DevTools Recorder's JSON (the `@puppeteer/replay` UserFlow format), so a
 * flow can be opened in DevTools or replayed with Puppeteer. Secret values are never written:
 * their `change` steps carry an empty value, to be filled in by whoever replays the file.
 */

export interface DevToolsStep {
  type: string
  [key: string]: unknown
}
export interface DevToolsRecording {
  title: string
  timeout?: number
  steps: DevToolsStep[]
}

/** The viewport Ava's e2e tests and `ava run` use. */
const kViewport = {
  width: 1280,
  height: 800,
  deviceScaleFactor: 1,
  isMobile: false,
  hasTouch: false,
  isLandscape: false,
}
/** Clicks land this far inside the element's box; the Recorder requires an offset. */
const kClickOffset = 2

function unquote(s: string): string {
  const t = s.trim()
  return t.length >= 2 && (t[0] === '"' || t[0] === "'") && t.at(-1) === t[0]
    ? t.slice(1, -1).replace(/\\(["'\\])/g, '$1')
    : t
}

/** One of our locators as a Recorder selector (`aria/…`, `xpath/…`, `text/…`, or CSS); null if none fits. */
export function toDevToolsSelector(s: FlowSelector): string | null {
  if (s.type === 'index') return null
  const m = /^([a-z]+):([\s\S]*)$/.exec(s.value)
  const prefix = m?.[1] ?? (s.value.startsWith('//') ? 'xpath' : 'css')
  const body = (m ? m[2] : s.value).trim()
  if (prefix === 'css') return body
  if (prefix === 'xpath') return `xpath/${body}`
  if (prefix === 'testid') return `[data-testid="${unquote(body).replace(/"/g, '\\"')}"]`
  if (prefix === 'text') return `text/${unquote(body)}`
  if (prefix === 'role') {
    const r = /^([a-z]+)\s*(?:\[\s*name\s*=\s*("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')\s*(i)?\s*\])?$/.exec(body)
    if (!r || !r[2]) return null
    return `aria/${unquote(r[2])}[role="${r[1]}"]`
  }
  return null
}

function selectorsOf(step: FlowStep): string[] {
  const out = step.selectors
    ? alternativesOf(step.selectors)
        .map(toDevToolsSelector)
        .filter((s): s is string => !!s)
    : []
  return [...new Set(out)]
}

function keys(chord: string): string[] {
  return chord.split('+').map((k) => (k.length === 1 ? k : k.trim()))
}

/** A glob over the whole address (`*` anything) or a substring, as `verify {url}` reads it. */
function urlExpression(pattern: string): string {
  if (!pattern.includes('*')) return `location.href.includes(${JSON.stringify(pattern)})`
  const source = `^${pattern
    .split('*')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'))
    .join('.*')}$`
  return `new RegExp(${JSON.stringify(source)}).test(location.href)`
}

/** A verify step as a Recorder assertion: waitForExpression for the address, waitForElement for the rest. */
function devToolsCheck(
  step: FlowStep,
  target: { selectors: string[][] } | null,
  value: (v: unknown) => string,
): DevToolsStep | null {
  const p = step.params
  if (typeof p.url === 'string') return { type: 'waitForExpression', expression: urlExpression(value(p.url)) }
  // Puppeteer's text selector finds an element whose text contains it: the page shows it.
  if (typeof p.text === 'string' && !step.selectors)
    return { type: 'waitForElement', selectors: [[`text/${value(p.text)}`]] }
  if (!target) return null
  if (typeof p.count === 'number') return { type: 'waitForElement', ...target, operator: '==', count: p.count }
  if (typeof p.value === 'string') return { type: 'waitForElement', ...target, properties: { value: value(p.value) } }
  if (typeof p.text === 'string') return { type: 'waitForElement', ...target, properties: { innerText: value(p.text) } }
  const states: Record<string, DevToolsStep> = {
    visible: { type: 'waitForElement', ...target },
    hidden: { type: 'waitForElement', ...target, visible: false },
    checked: { type: 'waitForElement', ...target, properties: { checked: true } },
    unchecked: { type: 'waitForElement', ...target, properties: { checked: false } },
    enabled: { type: 'waitForElement', ...target, properties: { disabled: false } },
    disabled: { type: 'waitForElement', ...target, properties: { disabled: true } },
  }
  return states[String(p.state)] ?? null
}

/** The flow as a Recorder recording; variables take their defaults, secrets stay empty. */
export function toDevTools(flow: Flow): DevToolsRecording {
  const value = (text: unknown) =>
    String(text ?? '').replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, name: string) => {
      const v = flow.variables[name]
      if (!v || v.secret) return ''
      const src = parseSource(v.value)
      return src?.kind === 'literal' ? src.value : ''
    })
  const steps: DevToolsStep[] = [{ type: 'setViewport', ...kViewport }]
  if (flow.metadata.start_url)
    steps.push({
      type: 'navigate',
      url: flow.metadata.start_url,
      assertedEvents: [{ type: 'navigation', url: flow.metadata.start_url, title: '' }],
    })
  for (const step of flow.steps) {
    const selectors = selectorsOf(step)
    const target = selectors.length ? { selectors: selectors.map((s) => [s]) } : null
    const click = { offsetX: kClickOffset, offsetY: kClickOffset }
    // What the step becomes is its descriptor's rule (src/core/vocabulary.ts); none: nothing to replay there.
    const rule = flowStep(step.action)?.devtools
    if (rule)
      steps.push(
        ...rule({ p: step.params, target, click, value, keys, check: () => devToolsCheck(step, target, value) }),
      )
  }
  return { title: flow.metadata.name, steps }
}
