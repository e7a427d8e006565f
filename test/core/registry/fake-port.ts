import type { ParsedSelector } from '../../../src/core/page/selectors'
import type { BrowserPort } from '../../../src/core/registry'
import { PortError } from '../../../src/core/registry'

export interface Call {
  method: string
  args: unknown[]
}

/**
 * A recording BrowserPort. `present` lists the raw selectors
 * that exist on the fake page; `failures` makes the next N calls of a method throw; `values`
 * answers getText/getAttribute/readGlobal/getUrl.
 */
export class FakePort implements BrowserPort {
  calls: Call[] = []
  present = new Set<string>()
  failures = new Map<string, number>()
  delays = new Map<string, number>()
  texts = new Map<string, string>()
  attributes = new Map<string, string>()
  globals = new Map<string, unknown>()
  url = 'https://example.test/'
  userScript?: (script: string, args: Record<string, unknown>) => unknown

  constructor(present: string[] = []) {
    present.forEach((p) => this.present.add(p))
  }

  private async act(method: string, args: unknown[], signal: AbortSignal): Promise<void> {
    this.calls.push({ method, args })
    const delay = this.delays.get(method)
    if (delay) {
      await new Promise<void>((resolve, reject) => {
        const t = setTimeout(resolve, delay)
        signal.addEventListener('abort', () => {
          clearTimeout(t)
          reject(signal.reason)
        })
      })
    }
    const left = this.failures.get(method) ?? 0
    if (left > 0) {
      this.failures.set(method, left - 1)
      throw new Error(`${method} failed on purpose`)
    }
  }

  /** Calls other than query and version reads, as `method raw-selector`, for order assertions. */
  actions(): string[] {
    return this.calls
      .filter((c) => c.method !== 'query' && c.method !== 'readGlobal')
      .map((c) =>
        [
          c.method,
          ...c.args.map((a) =>
            a && typeof a === 'object' && 'raw' in a ? (a as ParsedSelector).raw : typeof a === 'string' ? a : '',
          ),
        ]
          .filter(Boolean)
          .join(' '),
      )
  }

  async query(selector: ParsedSelector): Promise<number> {
    this.calls.push({ method: 'query', args: [selector] })
    return this.present.has(selector.raw) ? 1 : 0
  }
  async click(target: ParsedSelector, options: { button: string; count: number }, signal: AbortSignal): Promise<void> {
    await this.act('click', [target, options], signal)
  }
  async fill(target: ParsedSelector, value: string, signal: AbortSignal): Promise<void> {
    await this.act('fill', [target, value], signal)
  }
  async type(
    target: ParsedSelector | null,
    text: string,
    options: { delayMs: number },
    signal: AbortSignal,
  ): Promise<void> {
    await this.act('type', [target, text, options], signal)
  }
  async press(key: string, target: ParsedSelector | null, signal: AbortSignal): Promise<void> {
    await this.act('press', [key, target], signal)
  }
  async hover(target: ParsedSelector, signal: AbortSignal): Promise<void> {
    await this.act('hover', [target], signal)
  }
  async select(target: ParsedSelector, values: string[], signal: AbortSignal): Promise<void> {
    await this.act('select', [target, values], signal)
  }
  async check(target: ParsedSelector, checked: boolean, signal: AbortSignal): Promise<void> {
    await this.act('check', [target, checked], signal)
  }
  async scroll(
    target: ParsedSelector | null,
    options: { direction: string; amount: number },
    signal: AbortSignal,
  ): Promise<void> {
    await this.act('scroll', [target, options], signal)
  }
  async waitFor(condition: unknown, timeoutMs: number, signal: AbortSignal): Promise<void> {
    await this.act('waitFor', [condition, timeoutMs], signal)
  }
  async snapshot(signal: AbortSignal): Promise<unknown> {
    await this.act('snapshot', [], signal)
    return { title: 'Fake page' }
  }
  async find(query: string, signal: AbortSignal): Promise<unknown> {
    await this.act('find', [query], signal)
    return this.present.has(`find:${query}`) ? { ref: 'e5' } : null
  }
  async navigate(url: string, signal: AbortSignal): Promise<void> {
    await this.act('navigate', [url], signal)
    this.url = url
  }
  async getText(target: ParsedSelector, signal: AbortSignal): Promise<string> {
    await this.act('getText', [target], signal)
    const text = this.texts.get(target.raw)
    if (text === undefined) throw new PortError('ELEMENT_NOT_FOUND', `no text for ${target.raw}`)
    return text
  }
  async getAttribute(target: ParsedSelector, name: string, signal: AbortSignal): Promise<string | null> {
    await this.act('getAttribute', [target, name], signal)
    return this.attributes.get(`${target.raw}@${name}`) ?? null
  }
  async getUrl(signal: AbortSignal): Promise<string> {
    await this.act('getUrl', [], signal)
    return this.url
  }
  async readGlobal(path: string[], signal: AbortSignal): Promise<unknown> {
    await this.act('readGlobal', [path.join('.')], signal)
    return this.globals.get(path.join('.'))
  }
}

/** A port without the optional user-scripts hook, and one with it. */
export function withUserScripts(
  port: FakePort,
  run: (script: string, args: Record<string, unknown>) => unknown,
): FakePort & Required<Pick<BrowserPort, 'runUserScript'>> {
  const p = port as FakePort & Required<Pick<BrowserPort, 'runUserScript'>>
  p.runUserScript = async (script, args, signal) => {
    p.calls.push({ method: 'runUserScript', args: [script, args] })
    void signal
    return run(script, args)
  }
  return p
}
