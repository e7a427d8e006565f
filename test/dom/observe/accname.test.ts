// @vitest-environment happy-dom
// The one name module (src/dom/words/accname.ts) against the accname cases that need no style
// engine (accname-cases.ts; the rest run in Chromium, e2e/observe/accname.test.ts), read both
// through the locators' entry point and as the label the listing shows; and the names guessed
// for controls that have none.
import { beforeEach, describe, expect, test } from 'vitest'
import { accessibleName } from '../../../src/dom/locators'
import { clearAgentIds, idOfElement, observe } from '../../../src/dom/observe'
import { guessedName } from '../../../src/dom/words'
import { serialize } from '../../../src/core/page/serialize'
import { kNameCases } from './accname-cases'

function set(html: string): Element {
  clearAgentIds()
  document.body.innerHTML = html
  const el = document.querySelector('[data-m="x"]')
  if (!el) throw new Error('no element marked x')
  return el
}

beforeEach(() => {
  document.body.innerHTML = ''
})

describe('accname cases', () => {
  test.each(kNameCases.filter((c) => !c.css).map((c) => [`${c.step} ${c.what}`, c] as const))('%s', async (_, c) => {
    const el = set(c.html)
    expect(accessibleName(el)).toBe(c.name)
    // The listing reads the same name for the elements it lists.
    await Promise.resolve()
    const listed = observe({ root: document }).elements.find((e) => e.id === idOfElement(el))
    if (listed) expect(listed.label).toBe(c.name.slice(0, 50))
  })
})

describe('guessed names', () => {
  test.each([
    ['a font icon class', '<span data-m="x" class="act"><i class="fa-regular fa-heart"></i></span>', 'like heart'],
    [
      'the control class beside noise',
      '<div data-m="x" class="ProfileTweet-action ProfileTweet-action--favorite js-toggleState"><span class="Icon"></span></div>',
      'favorite',
    ],
    [
      'an icon-prefixed class, with what people call it',
      '<span data-m="x"><span class="icon icon-trash"></span></span>',
      'delete trash',
    ],
    [
      'a sprite span named in capitals',
      '<div data-m="x" class="ProfileTweet-action js-actionFavorite"><span class="Icon Icon--heart"></span></div>',
      'like heart',
    ],
    ['an svg <use> target id', '<span data-m="x"><svg><use href="#icon-retweet"></use></svg></span>', 'retweet'],
    [
      'an svg <use> target with a title',
      '<svg style="display:none"><symbol id="s1"><title>Reply</title></symbol></svg><span data-m="x"><svg><use href="#s1"></use></svg></span>',
      'Reply',
    ],
    ['an image file name', '<span data-m="x"><img src="/static/img/star-outline@2x.png"></span>', 'star'],
    ['a title inside', '<span data-m="x"><b title="Mark as read"></b></span>', 'Mark as read'],
    ['nothing to go on', '<span data-m="x" class="x1a2b3c"></span>', ''],
  ])('%s', (_, html, name) => {
    expect(guessedName(set(html))).toBe(name)
  })

  test('an icon-only control with a handler is listed by its guessed name, marked guessed', () => {
    const el = set(
      '<div class="post"><p>Alice: hello</p><span data-m="x" class="reply" onclick="void 0"><svg viewBox="0 0 4 4"><path d="M0 0h4"></path></svg></span></div>',
    )
    const snap = observe({ root: document })
    const rec = snap.elements.find((e) => e.id === idOfElement(el))!
    expect(rec).toMatchObject({ label: 'reply', guessed: true })
    expect(rec.id).toBe('btn_reply')
    expect(serialize(snap, { budgetTokens: Infinity }).text).toContain('btn_reply[guessed]')
  })

  test('a Material Icons ligature is a guessed name in words', () => {
    const el = set('<button data-m="x"><span class="material-icons">thumb_up</span></button>')
    const rec = observe({ root: document }).elements.find((e) => e.id === idOfElement(el))!
    expect(rec).toMatchObject({ label: 'thumb up', guessed: true })
  })
})
