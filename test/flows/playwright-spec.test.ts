import { describe, expect, test } from 'vitest'
import ts from 'typescript'
import { flowFromEvents, parseFlow, type Flow } from '../../src/core/flows'
import { describeStep, toPlaywrightSpec } from '../../src/core/flows/playwright'
import { loginEvents } from './fixtures'

const flow: Flow = flowFromEvents(loginEvents(), { name: 'Log in', source: 'recording', now: new Date(0) })

/** The spec as a program: its import, its page.goto, its ava.step calls with their comments, and the embedded flow. */
function read(code: string) {
  const file = ts.createSourceFile('x.spec.ts', code, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS)
  const out = { imports: [] as string[], gotos: [] as string[], steps: [] as { id: number; params: boolean; comment: string }[], flow: undefined as unknown }
  const visit = (n: ts.Node) => {
    if (ts.isImportDeclaration(n)) out.imports.push((n.moduleSpecifier as ts.StringLiteral).text)
    if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression)) {
      const call = n.expression.getText(file)
      if (call === 'page.goto') out.gotos.push((n.arguments[0] as ts.StringLiteral).text)
      if (call === 'ava.step') {
        const line = code.slice(n.getEnd(), code.indexOf('\n', n.getEnd()))
        out.steps.push({ id: Number((n.arguments[1] as ts.NumericLiteral).text), params: n.arguments.length === 3, comment: line.replace(/^\s*\/\/\s*/, '') })
      }
    }
    if (ts.isVariableDeclaration(n) && n.name.getText(file) === 'flow') out.flow = JSON.parse(n.initializer!.getText(file))
    ts.forEachChild(n, visit)
  }
  visit(file)
  const syntax = ts.transpileModule(code, { reportDiagnostics: true, compilerOptions: { module: ts.ModuleKind.ESNext } }).diagnostics ?? []
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
    expect(spec.steps.map((s) => s.comment)).toEqual(['fill "User name" with "${user_name}"', 'fill "Password" with the secret password', 'click "Save"'])
  })

  test('the embedded flow parses back to the same steps and variables, without stats', () => {
    const withStats = { ...flow, stats: { runs: 3, healed_runs: 1, steps: {} } }
    const back = parseFlow(read(toPlaywrightSpec(withStats)).flow)
    expect(back.steps).toEqual(flow.steps)
    expect(back.variables).toEqual(flow.variables)
    expect(back.stats).toBeUndefined()
  })

  test('a secret literal is never written; it and ${prompt:…} values come from the environment', () => {
    const withSecret: Flow = { ...flow, variables: { ...flow.variables, password: { secret: true, value: 'hunter2-literal' }, code: { value: '${prompt:One-time code}' } } }
    const code = toPlaywrightSpec(withSecret, { fixture: '../e2e/playwright-test/fixture' })
    expect(code).not.toContain('hunter2-literal')
    expect(code).toContain('const params = { password: process.env.PASSWORD, code: process.env.CODE }')
    const spec = read(code)
    expect(spec.imports).toEqual(['../e2e/playwright-test/fixture'])
    expect(spec.steps.every((s) => s.params)).toBe(true)
    expect((spec.flow as Flow).variables.password).toEqual({ secret: true })
  })

  test('names, values and descriptions that hold quotes, backticks or comment ends stay inside their literals', () => {
    const hostile = '*/ `${x}` "q" \n}) ('
    const odd: Flow = { ...flow, metadata: { ...flow.metadata, name: hostile }, steps: flow.steps.map((s) => (s.action === 'click' ? { ...s, description: hostile, element_snapshot: { ...s.element_snapshot!, text: hostile } } : s)) }
    const spec = read(toPlaywrightSpec(odd))
    expect(spec.errors).toEqual([])
    expect(spec.steps).toHaveLength(flow.steps.length)
    expect((spec.flow as Flow).metadata.name).toBe(hostile)
  })
})
