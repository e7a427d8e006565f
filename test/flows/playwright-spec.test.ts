import { describe, expect, test } from 'vitest'
import ts from 'typescript'
import { flowFromEvents, parseFlow, type Flow } from '../../src/core/flows'
import { describeStep, toPlaywrightSpec } from '../../src/core/flows/playwright'
import { loginEvents } from './fixtures'

const flow: Flow = flowFromEvents(loginEvents(), { name: 'Log in', source: 'recording', now: new Date(0) })

/** The spec as a program: its import, its page.goto, its ava.step calls with their comments, and the embedded flow. */
function read(code: string) {
  const file = ts.createSourceFile('x.spec.ts', code, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS)
  const out = {
    imports: [] as string[],
    gotos: [] as string[],
    steps: [] as { id: number; params: boolean; comment: string }[],
    flow: undefined as unknown,
  }
  const visit = (n: ts.Node) => {
    if (ts.isImportDeclaration(n)) out.imports.push((n.moduleSpecifier as ts.StringLiteral).text)
    if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression)) {
      const call = n.expression.getText(file)
      if (call === 'page.goto') out.gotos.push((n.arguments[0] as ts.StringLiteral).text)
      if (call === 'ava.step') {
        const line = code.slice(n.getEnd(), code.indexOf('\n', n.getEnd()))
        out.steps.push({
          id: Number((n.arguments[1] as ts.NumericLiteral).text),
          params: n.arguments.length === 3,
          comment: line.replace(/^[^/]*\/\/\s*/, ''),
        })
      }
    }
    if (ts.isVariableDeclaration(n) && n.name.getText(file) === 'flow')
      out.flow = JSON.parse(n.initializer!.getText(file))
    ts.forEachChild(n, visit)
  }
  visit(file)
  const syntax =
    ts.transpileModule(code, { reportDiagnostics: true, compilerOptions: { module: ts.ModuleKind.ESNext } })
      .diagnostics ?? []
  return { ...out, errors: syntax.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n')) }
}

describe('a flow as a Playwright Test spec', () => {
  test('one ava.step line per step, in order, with what it does; the fixture and start page first', () => {
    const spec = read(toPlaywrightSpec(flow))
    expect(spec.errors).toEqual([])
    expect(spec.imports).toEqual(['ava-assistant/playwright'])
    expect(spec.gotos).toEqual([flow.metadata.start_url])
    expect(spec.steps.map((s) => s.id)).toEqual(flow.steps.map((s) => s.step_id))
    expect(spec.steps.map((s) => s.comment)).toEqual(flow.steps.map((s) => describeStep(flow, s)))
    expect(spec.steps.map((s) => s.comment)).toEqual([
      'fill "User name" with "${user_name}"',
      'fill "Password" with the secret password',
      'click "Save"',
    ])
  })

  test('the embedded flow parses back to the same steps and variables, without stats', () => {
    const withStats = { ...flow, stats: { runs: 3, healed_runs: 1, steps: {} } }
    const back = parseFlow(read(toPlaywrightSpec(withStats)).flow)
    expect(back.steps).toEqual(flow.steps)
    expect(back.variables).toEqual(flow.variables)
    expect(back.stats).toBeUndefined()
  })

  test('a secret literal is never written; it and ${prompt:…} values come from the environment', () => {
    const withSecret: Flow = {
      ...flow,
      variables: {
        ...flow.variables,
        password: { secret: true, value: 'hunter2-literal' },
        code: { value: '${prompt:One-time code}' },
      },
    }
    const code = toPlaywrightSpec(withSecret, { fixture: '../src/playwright/fixture' })
    expect(code).not.toContain('hunter2-literal')
    expect(code).toContain('const params = { password: process.env.PASSWORD, code: process.env.CODE }')
    const spec = read(code)
    expect(spec.imports).toEqual(['../src/playwright/fixture'])
    expect(spec.steps.every((s) => s.params)).toBe(true)
    expect((spec.flow as Flow).variables.password).toEqual({ secret: true })
  })

  test('names, values and descriptions that hold quotes, backticks or comment ends stay inside their literals', () => {
    const hostile = '*/ `${x}` "q" \n}) ('
    const odd: Flow = {
      ...flow,
      metadata: { ...flow.metadata, name: hostile },
      steps: flow.steps.map((s) =>
        s.action === 'click'
          ? { ...s, description: hostile, element_snapshot: { ...s.element_snapshot!, text: hostile } }
          : s,
      ),
    }
    const spec = read(toPlaywrightSpec(odd))
    expect(spec.errors).toEqual([])
    expect(spec.steps).toHaveLength(flow.steps.length)
    expect((spec.flow as Flow).metadata.name).toBe(hostile)
  })
})

describe('the step kinds that check, read, move and end', () => {
  const sel = (value: string, text?: string) => ({
    selectors: { primary: { type: 'css' as const, value }, fallback: [] },
    ...(text ? { element_snapshot: { tag: 'b', text, attributes: {} } } : {}),
  })
  const orders = parseFlow({
    version: '1.0',
    metadata: {
      name: 'Order 742 is shipped',
      created_at: '2026-01-01T00:00:00.000Z',
      source: 'manual',
      start_url: 'http://127.0.0.1:8080/orders',
    },
    variables: {
      order: { value: '742' },
      cv: { value: '${file:files/cv.pdf}' },
      pin: { secret: true, value: '${env:PIN}' },
    },
    steps: [
      { action: 'click', params: {}, ...sel('css:#receipt', 'Receipt') },
      { action: 'tab', params: {} },
      { action: 'verify', params: { url: '*/orders/${order}' } },
      { action: 'expect', params: { text: 'Shipped' }, ...sel('css:#status', 'Status') },
      { action: 'verify', params: { state: 'checked' }, ...sel('css:#gift', 'Gift wrap') },
      { action: 'verify', params: { value: '${pin}' }, ...sel('css:#pin', 'PIN') },
      { action: 'verify', params: { count: 3 }, ...sel('css:table.orders tbody tr') },
      { action: 'extract', params: { name: 'class' }, ...sel('css:#carrier', 'Carrier') },
      { action: 'extract', params: { name: 'link', attribute: 'href' }, ...sel('css:#track', 'Track') },
      { action: 'upload', params: { file: '${cv}' }, ...sel('css:#cv', 'Résumé') },
      { action: 'go_back', params: {} },
      { action: 'tab', params: { index: 0 } },
      { action: 'tab', params: { url: '*/orders' } },
      { action: 'done', params: { text: 'Order ${order} is shipped' } },
      { action: 'verify', params: { text: 'never' } },
    ].map((s, i) => ({ step_id: i + 1, ...s })),
  })

  test('each becomes an ava.step line that says what it does; extract lines keep what they read', () => {
    const code = toPlaywrightSpec(orders)
    const spec = read(code)
    expect(spec.errors).toEqual([])
    expect(spec.steps.map((s) => [s.id, s.comment])).toEqual([
      [1, 'click "Receipt"'],
      [2, 'switch to the tab the previous step opened'],
      [3, 'check the address matches "*/orders/${order}"'],
      [4, 'check "Status" shows "Shipped"'],
      [5, 'check "Gift wrap" is checked'],
      [6, 'check "PIN" has the value the secret pin'],
      [7, 'check 3 element(s) match css:table.orders tbody tr'],
      [8, 'read "Carrier" into returns.class'],
      [9, 'read the href of "Track" into returns.link'],
      [10, 'upload "${cv}" into "Résumé"'],
      [11, 'go back'],
      [12, 'switch to tab 0'],
      [13, 'switch to the tab at "*/orders"'],
      [14, 'done: "Order ${order} is shipped"'],
    ])
    // A reserved word as a name stays a string key; the step after done is not written.
    expect(code).toContain('  const returns: Record<string, string | undefined> = {}\n')
    expect(code).toContain(
      '  returns["class"] = (await ava.step(flow, 8)).value // read "Carrier" into returns.class\n',
    )
    expect(code).toContain('  returns["link"] = (await ava.step(flow, 9)).value')
    expect(code).toContain('  // Steps after the done step (1) never run.\n')
    expect(parseFlow(spec.flow).steps).toEqual(orders.steps)
  })

  test('a failing done says so; a flow without extract declares no returns', () => {
    const failing = parseFlow({
      ...orders,
      steps: [{ step_id: 1, action: 'done', params: { text: 'Out of stock', success: false } }],
    })
    expect(describeStep(failing, failing.steps[0])).toBe('done, failing: "Out of stock"')
    expect(toPlaywrightSpec(failing)).not.toContain('const returns')
    expect(toPlaywrightSpec(failing)).not.toContain('never run')
  })
})
