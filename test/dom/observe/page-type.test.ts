// @vitest-environment happy-dom
// Page type from the weighted signals, one fixture per page type.
import { beforeEach, describe, expect, test } from 'vitest'
import { PageType } from '../../../src/core/page/snapshot'
import { clearAgentIds, observe } from '../../../src/dom/observe'
import { page } from './helpers'

beforeEach(() => clearAgentIds())

const para = (n: number) =>
  Array.from(
    { length: n },
    (_, i) => `<p>${'Paragraph ' + i + ' tells a long story about the subject at hand. '.repeat(6)}</p>`,
  ).join('')
const items = (n: number, inner: (i: number) => string) =>
  Array.from({ length: n }, (_, i) => `<li>${inner(i)}</li>`).join('')

const fixtures: Array<[PageType, string, string, string]> = [
  [
    PageType.SEARCH_ENGINE,
    'https://find.test/',
    'Find',
    '<main><form role="search"><input type="search" name="q"><button>Search</button></form><a href="/about">About</a></main>',
  ],
  [
    PageType.SEARCH_RESULTS,
    'https://find.test/search?q=vue',
    'vue - Find',
    `<form role="search"><input type="search" name="q" value="vue"><button>Search</button></form><p>About 1,000 results</p><ol>${items(10, (i) => `<a href="/r${i}">Result ${i}</a>`)}</ol>`,
  ],
  [
    PageType.LOGIN,
    'https://app.test/account/enter',
    'Welcome',
    '<form><input name="user" placeholder="Username"><input type="password" placeholder="Password"><button>Sign in</button></form>',
  ],
  [
    PageType.REGISTER,
    'https://app.test/welcome',
    'Join us',
    '<form><input placeholder="Email"><input type="password" placeholder="Password"><input type="password" placeholder="Repeat password"><button>Create account</button></form>',
  ],
  [
    PageType.FORM,
    'https://gov.test/apply',
    'Application',
    '<form><input placeholder="Name" required><input type="email" placeholder="Email" required><input type="tel" placeholder="Phone"><select aria-label="Country"><option>FR</option></select><textarea aria-label="Notes"></textarea><button>Submit</button></form>',
  ],
  [
    PageType.ARTICLE,
    'https://news.test/2024/story',
    'A story',
    `<article><h1>The story</h1>${para(6)}</article><a href="/">Home</a>`,
  ],
  [
    PageType.LIST,
    'https://shop.test/products',
    'Products',
    `<ul>${items(40, (i) => `<a href="/p/${i}">Product ${i}</a>`)}</ul><a href="?page=2" class="pagination-next">Next</a>`,
  ],
  [
    PageType.EMAIL_COMPOSE,
    'https://mail.test/mail/compose',
    'New message',
    '<form><label>To <input name="to"></label><label>Subject <input name="subject"></label><textarea aria-label="Body"></textarea><button>Send</button></form>',
  ],
  [
    PageType.EMAIL_INBOX,
    'https://mail.test/mail/inbox',
    'Inbox (3)',
    `<nav><a href="/inbox">Inbox</a><a href="/sent">Sent</a></nav><table><tbody>${Array.from({ length: 8 }, (_, i) => `<tr><td><input type="checkbox" aria-label="select"></td><td><a href="/m/${i}">Mail ${i}</a></td></tr>`).join('')}</tbody></table>`,
  ],
  [
    PageType.DASHBOARD,
    'https://app.test/dashboard',
    'Overview',
    '<nav><a href="/">Home</a></nav><aside><a href="/r">Reports</a></aside><main><canvas></canvas><canvas></canvas><h2>Revenue</h2></main>',
  ],
  [
    PageType.SETTINGS,
    'https://app.test/settings',
    'Settings',
    '<h1>Settings</h1><label><input type="checkbox"> Dark mode</label><label><input type="checkbox"> Emails</label><div role="switch" aria-checked="true" aria-label="Sync"></div><button>Save</button>',
  ],
  [
    PageType.CHECKOUT,
    'https://shop.test/checkout',
    'Checkout',
    '<form><input placeholder="Name on card"><input autocomplete="cc-number" placeholder="Card number"><input placeholder="CVC"><button>Place order</button></form>',
  ],
  [PageType.UNKNOWN, 'https://x.test/', 'Hello', '<p>Hello there.</p><a href="/">Home</a>'],
]

describe('page type', () => {
  test('every type has a fixture', () => {
    expect(new Set(fixtures.map((f) => f[0]))).toEqual(new Set(Object.values(PageType)))
  })
  test.each(fixtures)('%s', (type, url, title, body) => {
    const snap = observe({ root: page(body, { url, title }) })
    expect(snap.pageType).toBe(type)
    expect(snap.summary.length).toBeGreaterThan(0)
  })

  test('a login page offers the login intent with its fields and button', () => {
    const [, url, title, body] = fixtures.find((f) => f[0] === PageType.LOGIN)!
    const snap = observe({ root: page(body, { url, title }) })
    expect(snap.intents).toContainEqual({
      name: 'login',
      targets: ['input_username', 'password_password', 'btn_sign_in'],
    })
  })

  test('regions: header, nav, main, aside, footer, dialog and form', () => {
    const snap = observe({
      root: page(
        '<header><a href="/">Logo</a></header><nav><a href="/a">A</a></nav><main><form aria-label="Filter"><input aria-label="q"></form></main>' +
          '<aside><a href="/b">B</a></aside><footer><a href="/c">C</a></footer><div role="dialog" aria-label="Confirm"><button>OK</button></div>',
      ),
    })
    expect(snap.regions.filter((r) => r.elements > 0).map((r) => [r.id, r.kind])).toEqual([
      ['header', 'header'],
      ['nav', 'nav'],
      ['form_filter', 'form'],
      ['aside', 'aside'],
      ['footer', 'footer'],
      ['dialog_confirm', 'dialog'],
    ])
    expect(snap.summary).toContain('dialog open "Confirm"')
  })
})
