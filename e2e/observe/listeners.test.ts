// Listener hints in the built extension: plain <span>s made clickable by a script
// (addEventListener, an on* property, a jQuery delegated handler) are listed with ids and clicked
// by them; wrappers that only delegate stay out; and the page cannot tell the main-world script
// is there.
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { allowAll, instructionChunks, launchAva, listedOnPage, readSteps, sendAndWait, type Ava } from '../support/ava'
import { launchBrowser } from '../support/browser'
import { startLlmServer, type LlmServer } from '../support/llm-server'
import { startNobodyPages } from '../support/nobody-pages'

let ava: Ava
let llm: LlmServer
let pages: Awaited<ReturnType<typeof startNobodyPages>>

beforeAll(async () => {
  ;[ava, llm, pages] = await Promise.all([launchAva(), startLlmServer(), startNobodyPages()])
  await ava.configure({ provider: 'openai', baseUrl: llm.baseUrl, apiKey: 'k', model: 'test-model' })
})
afterAll(async () => {
  await Promise.all([ava?.close(), llm?.close(), pages?.close()])
})
beforeEach(() => {
  llm.requests.length = 0
  llm.script()
})

const chatRequests = () => llm.requests.filter((r) => r.api === 'openai')

/** Opens the feed with Ava's panel and lets one run read it, so the listing's ids are written. */
async function readFeed(page: Page): Promise<void> {
  await page.goto(pages.url('/feed.html'))
  llm.script({ chunks: instructionChunks([{ step_id: 1, action_type: 'done', params: { answer: 'Read.' } }]) })
  await sendAndWait(await ava.openPanel(page), 'what is on this page?')
}

it('lists script-clickable spans with ids, keeps delegating wrappers out, and a click on a listed id reaches the handler', async () => {
  const page = await ava.context.newPage()
  await readFeed(page)
  const prompt = JSON.stringify(chatRequests()[0].body)

  // Every action span, whichever way its handler was attached, is listed; the feed, the posts and
  // the action rows, which only hold or delegate to them, are not; the closed menu is not either.
  const panel = await ava.panel(page)
  const { listed, idOf } = await listedOnPage(panel, page, [
    '[data-post=p2] .reply',
    '[data-post=p3] .retweet',
    '[data-post=p1] .like',
    '[data-post=p2] .more',
  ])
  expect(listed.map((e) => `${e.at}:${e.text}`).sort()).toEqual(
    ['reply:Reply', 'retweet:Retweet', 'like:Like', 'more:more'].flatMap((x) => [x, x, x]).sort(),
  )
  // The model was told about the twelve controls, by row of their post (`sed: btn_reply_ …`).
  expect(prompt).toContain('12 controls')
  expect(prompt).toMatch(/sed: btn_reply_ btn_retweet_ btn_like_ btn_more_/)

  // Clicks by id: jQuery delegated (Reply), on* property (Retweet), addEventListener (Like), and a
  // mousedown menu whose items appear afterwards and are listed on the next read.
  const reply = idOf['[data-post=p2] .reply']
  const retweet = idOf['[data-post=p3] .retweet']
  const like = idOf['[data-post=p1] .like']
  const more = idOf['[data-post=p2] .more']
  expect([reply, retweet, like, more].every(Boolean)).toBe(true)
  llm.requests.length = 0
  llm.script(
    {
      chunks: instructionChunks([
        { step_id: 1, action_type: 'click', params: { target_id: reply }, description: 'Reply' },
        { step_id: 2, action_type: 'click', params: { target_id: retweet }, description: 'Retweet' },
        { step_id: 3, action_type: 'click', params: { target_id: like }, description: 'Like' },
        { step_id: 4, action_type: 'click', params: { target_id: more }, description: 'More' },
      ]),
    },
    // The model reads the page again: the open menu's items are listed now.
    {
      from: (body) => {
        const mute = /btn_mute\w*/.exec(JSON.stringify(body.messages.at(-1)))?.[0] ?? 'menu item not listed'
        return JSON.stringify([{ step_id: 5, action_type: 'click', params: { target_id: mute }, description: 'Mute' }])
      },
    },
  )
  const run = sendAndWait(panel, 'reply, retweet, like, then mute')
  await allowAll(page, run, (p) => ava.panel(p))
  await run
  const steps = await readSteps(panel)
  expect(steps.map((s) => s.status)).toEqual(['ok', 'ok', 'ok', 'ok', 'ok'])
  expect(await page.textContent('#log')).toBe('reply p2, retweet p3, like p1, mute p2')
  await page.close()
})

/**
 * What a page can learn about the functions the main-world script patches, and how its listeners
 * behave: run in a plain Chromium and in Ava's, after a scan, the answers must be the same.
 */
function probe() {
  const w = window as any
  const add = EventTarget.prototype.addEventListener
  const ts = Function.prototype.toString
  const d = Object.getOwnPropertyDescriptor(EventTarget.prototype, 'addEventListener')!
  const on = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'onclick')!
  const onDown = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'onmousedown')!
  const err = (f: () => unknown) => {
    try {
      f()
      return 'ok'
    } catch (e) {
      return `${(e as Error).constructor.name}: ${(e as Error).message}`
    }
  }
  const source = [
    add.toString(),
    String(add),
    ts.call(add),
    ts.toString(),
    ts.call(ts),
    String(on.set),
    String(on.get),
    String(onDown.set),
    String(ts.call),
  ]
  const shape = [
    add.name,
    add.length,
    Object.getOwnPropertyNames(add),
    'prototype' in add,
    typeof add,
    d.writable,
    d.enumerable,
    d.configurable,
  ]
  shape.push(
    on.enumerable,
    on.configurable,
    on.set!.name,
    on.set!.length,
    Object.getOwnPropertyNames(on.set),
    ts.name,
    ts.length,
    Object.getOwnPropertyNames(ts),
  )
  // A page that adds proxy traps to Object.prototype (by mistake or to probe) sees nothing new.
  ;(Object.prototype as any).get = () => 'trap'
  shape.push(add.name, on.set!.name, ts.name)
  delete (Object.prototype as any).get
  const identity = [
    add === w.pageStart.add,
    ts === w.pageStart.toString,
    on.set === w.pageStart.onclickSet,
    document.addEventListener === add,
    HTMLElement.prototype.addEventListener === add,
  ]

  const calls: string[] = []
  const errors: string[] = []
  const el = document.createElement('span')
  document.body.append(el)
  const ac = new AbortController()
  const b = () => calls.push('b')
  const onError = (e: ErrorEvent) => {
    errors.push(e.message)
    e.preventDefault()
  }
  window.addEventListener('error', onError)
  document.body.addEventListener('click', () => calls.push('capture-body'), true)
  document.body.addEventListener('click', () => calls.push('bubble-body'), { once: true })
  el.addEventListener('click', () => calls.push('a'))
  el.addEventListener('click', b)
  el.addEventListener('click', b)
  el.addEventListener('click', () => calls.push('once'), { once: true })
  el.addEventListener('click', () => calls.push('signal'), { signal: ac.signal })
  el.addEventListener('click', { handleEvent: () => calls.push('object') })
  el.addEventListener('click', () => {
    calls.push('thrower')
    throw new Error('page bug')
  })
  el.addEventListener('click', () => calls.push('after-throw'))
  el.onclick = () => calls.push('onclick')
  el.addEventListener('mousedown', (e) => calls.push('mousedown ' + e.defaultPrevented))
  el.click()
  el.removeEventListener('click', b)
  ac.abort()
  el.onclick = null
  el.click()
  el.dispatchEvent(new MouseEvent('mousedown', { bubbles: true, cancelable: true }))
  window.removeEventListener('error', onError)
  el.remove()
  const throws = [
    err(() => add.call({}, 'click', () => {})),
    err(() => (add as any).call(el)),
    err(() => ts.call({})),
    err(() => on.set!.call({}, () => {})),
    err(() => new (add as any)()),
  ]
  return { source, shape, identity, calls, errors, throws }
}

it('the page cannot tell: patched functions read, compare and behave as in a plain Chromium', async () => {
  const plain = await launchBrowser()
  let expected: unknown
  try {
    const page = await plain.newPage()
    await page.goto(pages.url('/feed.html'))
    expected = await page.evaluate(probe)
  } finally {
    await plain.close()
  }
  const page = await ava.context.newPage()
  await readFeed(page)
  const actual = await page.evaluate(probe)
  expect(actual).toEqual(expected)
  // The probe's own checks, so that equal answers are also the right ones.
  expect((actual as any).identity).toEqual([true, true, true, true, true])
  expect((actual as any).calls).toEqual([
    'capture-body',
    'a',
    'b',
    'once',
    'signal',
    'object',
    'thrower',
    'after-throw',
    'onclick',
    'bubble-body',
    'capture-body',
    'a',
    'object',
    'thrower',
    'after-throw',
    'mousedown false',
  ])
  expect((actual as any).errors).toEqual(['Uncaught Error: page bug', 'Uncaught Error: page bug'])
  await page.close()
})
