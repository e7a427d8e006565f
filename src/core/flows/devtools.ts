import { alternativesOf, type Flow, type FlowSelector, type FlowStep } from './schema'
import { parseSource } from './variables'

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
const kViewport = { width: 1280, height: 800, deviceScaleFactor: 1, isMobile: false, hasTouch: false, isLandscape: false }
/** Clicks land this far inside the element's box; the Recorder requires an offset. */
const kClickOffset = 2

function unquote(s: string): string {
  const t = s.trim()
  return t.length >= 2 && (t[0] === '"' || t[0] === "'") && t.at(-1) === t[0] ? t.slice(1, -1).replace(/\\(["'\\])/g, '$1') : t
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
  const out = step.selectors ? alternativesOf(step.selectors).map(toDevToolsSelector).filter((s): s is string => !!s) : []
  return [...new Set(out)]
}

function keys(chord: string): string[] {
  return chord.split('+').map((k) => (k.length === 1 ? k : k.trim()))
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
  if (flow.metadata.start_url) steps.push({ type: 'navigate', url: flow.metadata.start_url, assertedEvents: [{ type: 'navigation', url: flow.metadata.start_url, title: '' }] })
  for (const step of flow.steps) {
    const selectors = selectorsOf(step)
    const target = selectors.length ? { selectors: selectors.map((s) => [s]) } : null
    const click = { offsetX: kClickOffset, offsetY: kClickOffset }
    switch (step.action) {
      case 'navigate':
        steps.push({ type: 'navigate', url: String(step.params.url) })
        break
      case 'click':
      case 'check':
      case 'uncheck':
        if (target) steps.push({ type: 'click', ...target, ...click, ...(step.params.button === 'right' ? { button: 'secondary' } : {}) })
        break
      case 'dblclick':
        if (target) steps.push({ type: 'doubleClick', ...target, ...click })
        break
      case 'hover':
        if (target) steps.push({ type: 'hover', ...target })
        break
      case 'fill':
      case 'select':
        if (target) steps.push({ type: 'change', ...target, value: value(step.params.value) })
        break
      case 'press': {
        const ks = keys(String(step.params.key))
        for (const k of ks) steps.push({ type: 'keyDown', key: k })
        for (const k of [...ks].reverse()) steps.push({ type: 'keyUp', key: k })
        break
      }
      case 'scroll':
        steps.push({ type: 'scroll', x: 0, y: step.params.direction === 'up' ? 0 : Number(step.params.amount ?? 600) })
        break
      case 'wait':
        if (target) steps.push({ type: 'waitForElement', ...target })
        break
    }
  }
  return { title: flow.metadata.name, steps }
}
