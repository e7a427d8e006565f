// @vitest-environment happy-dom
// Held-out: a click done through the DOM — the element is on the page but never drawn,
// as happy-dom draws nothing — has no pointer to hit-test, so the gate's second look (`recheck`)
// must still come before it: a page that relabelled the element after the yes gets no click.
import { beforeEach, expect, it } from 'vitest'
import { parsedTarget } from '../../../src/core/page/command'
import { runCommand } from '../../../src/dom/executor'

let clicks: string[] = []
beforeEach(() => {
  clicks = []
  document.body.innerHTML = '<button id="del" type="button">Delete draft</button>'
  document.getElementById('del')!.addEventListener('click', (e) => clicks.push((e.target as Element).textContent ?? ''))
})

it('a forced click is not made when the gate’s second look refuses the element', async () => {
  const out = await runCommand(
    { action: 'click', target: parsedTarget({ selectors: ['#del'] }) },
    { timeoutMs: 10_000, recheck: () => 'It changed since you allowed it; nothing was clicked.' },
  )
  expect(out.ok).toBe(false)
  expect(!out.ok && out.reason).toBe('swapped')
  expect(clicks).toEqual([])
})

it('a forced click the second look lets through is made once', async () => {
  const out = await runCommand(
    { action: 'click', target: parsedTarget({ selectors: ['#del'] }) },
    { timeoutMs: 10_000, recheck: () => null },
  )
  expect(clicks).toEqual(['Delete draft'])
  expect(out.ok || out.reason).not.toBe('swapped')
})
