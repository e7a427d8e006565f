// the page cannot tell when Ava reads it. A page that watches everything it can watch
// (every change to its DOM, and the events a read could cause) sees nothing while a run reads it
// and answers; Ava's own panel, which the person opened, is the only thing that changes.
import { expect, it } from 'vitest'
import { instructionChunks, sendAndWait, withAgentWorld, type Ava } from '../support/ava'
import type { LlmServer } from '../support/llm-server'
import type { SiteServer } from '../support/site-server'

let ava: Ava
let llm: LlmServer
let site: SiteServer
withAgentWorld((w) => ({ ava, llm, site } = w))

/** Runs in the page before its own scripts: a log of everything a page can see happen to it. */
function watchEverything() {
  const log: string[] = []
  ;(window as unknown as { pageSaw: string[] }).pageSaw = log
  const ours = (n: Node | null) => {
    for (let e: Node | null = n; e; e = e.parentNode ?? (e as ShadowRoot).host ?? null) {
      if (e.nodeType === 1 && ((e as Element).localName === 'ava-root' || (e as Element).hasAttribute('data-ava-ui')))
        return true
    }
    return false
  }
  new MutationObserver((records) => {
    for (const r of records) {
      if (ours(r.target) || [...r.addedNodes, ...r.removedNodes].some((n) => ours(n))) continue
      log.push(`${r.type} ${r.attributeName ?? ''} on ${(r.target as Element).localName ?? r.target.nodeName}`)
    }
  }).observe(document, { attributes: true, childList: true, subtree: true, characterData: true })
  const events = [
    'focus',
    'blur',
    'focusin',
    'focusout',
    'scroll',
    'scrollend',
    'mouseover',
    'mousemove',
    'pointerover',
    'pointermove',
    'pointerenter',
    'mouseenter',
    'resize',
    'selectionchange',
    'visibilitychange',
    'animationstart',
    'transitionrun',
    'wheel',
    'keydown',
  ]
  for (const type of events) {
    for (const target of [window, document])
      target.addEventListener(
        type,
        (e) => {
          if (!ours(e.target as Node)) log.push(`${type} on ${(e.target as Element).localName ?? 'window'}`)
        },
        true,
      )
  }
}

it('a page watching its DOM and its events sees nothing while Ava reads it and answers', async () => {
  const page = await ava.context.newPage()
  await page.addInitScript(watchEverything)
  await page.goto(`${site.url}/login`)
  const panel = await ava.openPanel(page)
  // What opening the panel caused is the person's doing; what follows is the read.
  await page.evaluate(() => ((window as unknown as { pageSaw: string[] }).pageSaw.length = 0))
  llm.script({
    chunks: instructionChunks([{ step_id: 1, action_type: 'done', params: { answer: 'A sign-in form.' } }]),
  })
  await sendAndWait(panel, 'what is on this page?')
  // The model was given the page: the read happened.
  expect(JSON.stringify(llm.requests.at(-1)?.body)).toContain('btn_log_in')
  expect(await page.evaluate(() => (window as unknown as { pageSaw: string[] }).pageSaw)).toEqual([])
  await page.close()
})
