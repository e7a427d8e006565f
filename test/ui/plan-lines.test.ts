// A plan card's list in the person's language (src/core/gate/plan.ts `planAsk`, src/ui/i18n.ts
// `sayMsg`): the framing, the action's word and the element's role from the locale tables; the
// element's words and its site as drawn.
import { afterAll, describe, expect, it } from 'vitest'
import { planAsk } from '../../src/core/gate/plan'
import { sayMsg, setLocale } from '../../src/ui/i18n'

const steps = [
  { what: 'click', drawn: { role: 'button', name: 'Select all', frame: 'https://notes.example' } },
  { what: 'fill', drawn: { role: 'textbox', name: 'Title', frame: 'https://notes.example' } },
  { what: 'Open the archive', drawn: null, opens: 'https://archive.example/' },
  { what: 'click', drawn: null },
  { what: 'press', drawn: { role: 'spinbutton', name: 'Count', frame: 'https://notes.example' } },
]

describe("a plan card's lines", () => {
  afterAll(() => setLocale('en'))

  it('are said in English in the English UI, as the English question lists them', async () => {
    await setLocale('en')
    const ask = planAsk('notes:tidy', steps)
    expect(sayMsg(ask)).toBe(
      'Run “notes:tidy”? It will act on these elements, in this order: 1. click: button “Select all” on notes.example; 2. fill: text box “Title” on notes.example; 3. Open the archive: opens https://archive.example/; 4. click: not on this page yet, asked about when reached; 5. press: spinbutton “Count” on notes.example. Allow once for all of them; any other element stops it and asks again.',
    )
  })

  it('are said in Chinese in the Chinese UI: no English word of Ava’s own is left in them', async () => {
    await setLocale('zh-CN')
    const said = sayMsg(planAsk('notes:tidy', steps))
    expect(said).toBe(
      '要运行“notes:tidy”吗？它将按以下顺序操作这些元素：1. 点击：按钮“Select all”，位于 notes.example；2. 填写：文本框“Title”，位于 notes.example；3. Open the archive：打开 https://archive.example/；4. 点击：尚不在此页面上，到达时再询问；5. press：spinbutton“Count”，位于 notes.example。允许一次即适用于全部；遇到任何其他元素都会停下并再次询问。',
    )
    for (const english of [' on ', 'opens', 'not on this page', 'text box']) expect(said).not.toContain(english)
  })
})
