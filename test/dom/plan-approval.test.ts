// @vitest-environment happy-dom
// One approval for a whole plan (docs/plan-approval.md): the person sees every
// element the plan will touch, as drawn and in order, says yes once, and the steps run through the
// one guard carrying the element approved for each. A step whose element is not the one approved
// (a look-alike put in its place) stops the plan there and asks again.
import { beforeEach, describe, expect, it } from 'vitest'
import type { ExecFailure } from '../../src/core/exec'
import type { PageCommand, PageCommandKind, PageOutcome } from '../../src/core/page/command'
import type { ParsedSelector } from '../../src/core/page/selectors'
import { createChannelPort } from '../../src/core/page/channel'
import { approvePlanOnce, drawThrough, previewPlan, type StepGuard } from '../../src/core/gate/guard'
import { clearAgentIds } from '../../src/dom/observe'
import { createReceiver } from '../../src/dom/page/receiver'

const css = (id: string): ParsedSelector => ({ kind: 'css', value: `#${id}`, raw: `#${id}` }) as ParsedSelector
const kSteps = ['s1', 's2', 's3'].map((id) => ({
  what: `click #${id}`,
  step: { action: 'click' as const, target: { selectors: [css(id)] } },
}))

let clicks: string[] = []

function mount(): void {
  clicks = []
  document.body.innerHTML = `<main>
    <button id="s1" type="button">Select all</button>
    <button id="s2" type="button">Archive</button>
    <button id="s3" type="button">Delete selected</button>
  </main>`
  for (const b of document.querySelectorAll('button')) b.addEventListener('click', () => clicks.push(b.id))
}

/** The third target replaced by a look-alike: the same words, a link to another site. */
function swapThird(): void {
  const fake = document.createElement('a')
  fake.id = 's3'
  fake.href = 'https://evil.example/wipe-everything'
  fake.setAttribute('role', 'button')
  fake.textContent = 'Delete selected'
  fake.addEventListener('click', (e) => {
    e.preventDefault()
    clicks.push('look-alike')
  })
  document.getElementById('s3')!.replaceWith(fake)
}

function harness(answers: boolean[] = []) {
  const receive = createReceiver()
  const send = async <K extends PageCommandKind>(c: PageCommand<K>): Promise<PageOutcome<K>> => receive(c)
  const asked: { reason: string; refusal?: ExecFailure; clicksBefore: number }[] = []
  const guard: StepGuard = {
    confirm: ['destructive', 'payment', 'cross_site'],
    async ask(reason, refusal) {
      asked.push({ reason, refusal, clicksBefore: clicks.length })
      return answers.shift() ?? false
    },
    step: () => undefined,
  }
  return { send, guard, asked }
}

async function runPlan(send: ReturnType<typeof harness>['send'], guard: StepGuard): Promise<unknown> {
  const port = createChannelPort(send, { navigate: async () => undefined, guard })
  const signal = new AbortController().signal
  try {
    for (const id of ['s1', 's2', 's3']) await port.click(css(id), { button: 'left', count: 1 }, signal)
    return null
  } catch (e) {
    return e
  }
}

describe('one approval for a whole plan, bound to elements', () => {
  beforeEach(() => {
    clearAgentIds()
    mount()
  })

  it('the preview draws every element in order, with its site, and asks once', async () => {
    const { send, guard, asked } = harness([true])
    const steps = await previewPlan(drawThrough(send, new AbortController().signal), kSteps)
    expect(steps.map((s) => s.drawn && [s.drawn.role, s.drawn.name])).toEqual([
      ['button', 'Select all'],
      ['button', 'Archive'],
      ['button', 'Delete selected'],
    ])
    const approved = await approvePlanOnce(guard, 'Clean up', steps)
    expect(approved.ok).toBe(true)
    expect(asked).toHaveLength(1)
    expect(asked[0].refusal?.ask?.key).toBe('risk.ask.plan')
    expect(asked[0].reason).toMatch(/1\. click #s1: button “Select all”.*2\. .*“Archive”.*3\. .*“Delete selected”/)
  })

  it('an unchanged plan runs with the one approval and no further question', async () => {
    const { send, guard, asked } = harness([true])
    const approved = await approvePlanOnce(
      guard,
      'Clean up',
      await previewPlan(drawThrough(send, new AbortController().signal), kSteps),
    )
    if (!approved.ok) throw new Error('not approved')
    expect(await runPlan(send, approved.guard)).toBeNull()
    expect(clicks).toEqual(['s1', 's2', 's3'])
    // Only the plan's own question: "Delete selected" would have asked on its own.
    expect(asked).toHaveLength(1)
  })

  it('without a plan approval the same risky step asks (the approval is what answered it)', async () => {
    const { send, guard, asked } = harness([true])
    expect(await runPlan(send, guard)).toBeNull()
    expect(asked).toHaveLength(1)
    expect(asked[0].refusal?.drawn?.name).toBe('Delete selected')
  })

  it('a third element swapped for a look-alike after the approval stops at the third step and asks again', async () => {
    const { send, guard, asked } = harness([true, false])
    const approved = await approvePlanOnce(
      guard,
      'Clean up',
      await previewPlan(drawThrough(send, new AbortController().signal), kSteps),
    )
    if (!approved.ok) throw new Error('not approved')
    swapThird()
    const error = await runPlan(send, approved.guard)
    expect(clicks).toEqual(['s1', 's2'])
    expect(asked).toHaveLength(2)
    const again = asked[1]
    expect(again.clicksBefore).toBe(2)
    expect(again.refusal).toMatchObject({
      code: 'NEEDS_CONFIRMATION',
      changed: true,
      ask: { key: 'risk.ask.planChanged' },
    })
    expect(again.reason).toMatch(/Not the element you approved/)
    expect(again.reason).toMatch(/evil\.example/)
    expect(error).toMatchObject({ code: 'DENIED' })
  })

  it('a yes to the new question binds to the look-alike it showed, and only to it', async () => {
    const { send, guard, asked } = harness([true, true])
    const approved = await approvePlanOnce(
      guard,
      'Clean up',
      await previewPlan(drawThrough(send, new AbortController().signal), kSteps),
    )
    if (!approved.ok) throw new Error('not approved')
    swapThird()
    expect(await runPlan(send, approved.guard)).toBeNull()
    expect(asked).toHaveLength(2)
    expect(clicks).toEqual(['s1', 's2', 'look-alike'])
  })

  it('an element relabelled after the approval is not the approved one', async () => {
    const { send, guard, asked } = harness([true, false])
    const approved = await approvePlanOnce(
      guard,
      'Clean up',
      await previewPlan(drawThrough(send, new AbortController().signal), kSteps),
    )
    if (!approved.ok) throw new Error('not approved')
    document.getElementById('s2')!.textContent = 'Send $5,000'
    await runPlan(send, approved.guard)
    expect(clicks).toEqual(['s1'])
    expect(asked[1]?.refusal?.drawn?.name).toBe('Send $5,000')
  })

  it('a no to the plan refuses the start, nothing done', async () => {
    const { send, guard } = harness([false])
    const approved = await approvePlanOnce(
      guard,
      'Clean up',
      await previewPlan(drawThrough(send, new AbortController().signal), kSteps),
    )
    expect(approved).toMatchObject({ ok: false, code: 'DENIED' })
    expect(clicks).toEqual([])
  })
})
