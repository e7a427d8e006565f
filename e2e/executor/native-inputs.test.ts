/**
 * Every native input with values as people write them: date, time, datetime-local,
 * month, week, number, range, color and file, each read back from the page's own state; a value
 * the page refuses and one nobody can read fail clearly; contenteditable and Quill; Element Plus
 * el-date-picker and el-upload, Ant Design a-date-picker.
 */
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { build } from 'esbuild'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { exec, okOf, run, startHarness, state, type Harness } from './harness'

let h: Harness
beforeAll(async () => {
  h = await startHarness()
})
afterAll(() => h?.close())

const b64 = (text: string) => Buffer.from(text).toString('base64')

describe('native inputs', () => {
  test('each kind takes a human value and the page keeps it in its own format', async () => {
    const page = await h.open('/native-inputs.html')
    okOf(await exec(page, { action_type: 'input', params: { semantic_locator: 'Birthday', value: '09/27/2018' } }))
    okOf(await run(page, { action: 'fill', target: { semantic: 'Meeting time' }, value: '2:20 PM' }))
    okOf(await run(page, { action: 'fill', target: { semantic: 'Departure' }, value: '2018年9月27日 下午2点20分' }))
    okOf(await run(page, { action: 'fill', target: { semantic: 'Billing month' }, value: '2018年9月' }))
    okOf(await run(page, { action: 'type', target: { semantic: 'Sprint week' }, value: 'week 39, 2018' }))
    okOf(await run(page, { action: 'fill', target: { semantic: 'Quantity' }, value: '１２,345' }))
    okOf(await run(page, { action: 'fill', target: { semantic: 'Volume' }, value: '75' }))
    const colour = okOf(
      await run(page, { action: 'fill', target: { semantic: 'Theme colour' }, value: 'rebeccapurple' }),
    )
    expect(colour.detail).toBe('Typed "rebeccapurple" into "Theme colour" (as #663399)')
    const s = await state(page)
    expect(s.values).toEqual({
      birthday: '2018-09-27',
      meeting: '14:20',
      departure: '2018-09-27T14:20',
      billing: '2018-09',
      sprint: '2018-W39',
      quantity: '12345',
      volume: '75',
      theme: '#663399',
    })
    // Frameworks listen to input and change: both came, for every field.
    expect(s.events.filter((e: string) => e.startsWith('input:')).length).toBe(8)
  })

  test('an ambiguous day and month follow the language of the field, and the result says which', async () => {
    const page = await h.open('/native-inputs.html')
    const us = okOf(await run(page, { action: 'fill', target: { semantic: 'Birthday' }, value: '03/04/2018' }))
    const uk = okOf(await run(page, { action: 'fill', target: { semantic: 'UK date' }, value: '03/04/2018' }))
    expect(us.detail).toContain('read "03/04/2018" as 2018-03-04, month first as en-US writes dates')
    expect(uk.detail).toContain('read "03/04/2018" as 2018-04-03, day first as en-GB writes dates')
    expect((await state(page)).values).toMatchObject({ birthday: '2018-03-04', ukdate: '2018-04-03' })
  })

  test('values outside min/max/step, values the page undoes, and unreadable values fail clearly', async () => {
    const page = await h.open('/native-inputs.html')
    const late = await run(page, { action: 'fill', target: { semantic: 'Check-in date' }, value: 'Jan 5 2019' })
    expect(late.ok || [late.code, late.reason, late.message]).toEqual([
      'NOT_ACTIONABLE',
      'value-rejected',
      '"Check-in date" does not accept "Jan 5 2019" (2019-01-05): 2019-01-05 is above the largest value this field allows (2018-12-31).',
    ])
    const offStep = await run(page, { action: 'fill', target: { semantic: 'Volume' }, value: '33' })
    expect(offStep.ok || offStep.message).toContain('33 is not a multiple of the step 5 from 0')
    // Seconds in a field that steps by whole minutes: refused by the browser, put back, said so.
    const seconds = await run(page, { action: 'fill', target: { semantic: 'Meeting time' }, value: '14:20:05' })
    expect(seconds.ok || seconds.message).toBe(
      'Set "Meeting time" to 14:20:05 but the field allows only whole minutes.',
    )
    const odd = await run(page, { action: 'fill', target: { semantic: 'Even number' }, value: '7' })
    expect(odd.ok || [odd.code, odd.reason, odd.message]).toEqual([
      'NOT_ACTIONABLE',
      'value-rejected',
      'Set "Even number" to 7 but the page kept "".',
    ])
    const vague = await run(page, { action: 'fill', target: { semantic: 'Birthday' }, value: 'next thursday' })
    expect(vague.ok || [vague.code, vague.message, vague.suggestion]).toEqual([
      'INVALID',
      'Cannot read "next thursday" as a date: expected a date such as 2018-09-27 for "Birthday".',
      'Write the value as a date such as 2018-09-27.',
    ])
    // Nothing refused stayed in the page's state: the time was put back, the even field holds what the page put back.
    expect((await state(page)).values).toEqual({ meeting: '', even: '' })
  })

  test('upload puts files into a file input, and into the hidden one of el-upload', async () => {
    const page = await h.open('/native-inputs.html')
    okOf(
      await run(page, {
        action: 'upload',
        target: { semantic: 'Attachment' },
        files: [{ name: 'notes.txt', mimeType: 'text/plain', base64: b64('hello') }],
      }),
    )
    expect((await state(page)).files).toEqual(['notes.txt'])
    const wrongKind = await run(page, {
      action: 'upload',
      target: { semantic: 'Attachment' },
      files: [{ name: 'photo.png', mimeType: 'image/png', base64: b64('x') }],
    })
    expect(wrongKind.ok || wrongKind.message).toBe('"Attachment" accepts .txt,.csv, not "photo.png".')
    const styled = okOf(
      await run(page, {
        action: 'upload',
        target: { semantic: 'Click to upload' },
        files: [{ name: 'report.pdf', mimeType: 'application/pdf', base64: b64('%PDF-1.4') }],
      }),
    )
    expect(styled.detail).toMatch(/^Uploaded "report.pdf" to /)
    expect((await state(page)).epFiles).toEqual(['report.pdf'])
    // The hidden input itself, named by a selector, takes files too.
    okOf(
      await run(page, {
        action: 'upload',
        target: { selectors: ['css:.el-upload__input'] },
        files: [{ name: 'b.csv', mimeType: 'text/csv', base64: b64('a,b') }],
      }),
    )
    expect((await state(page)).epFiles).toEqual(['report.pdf', 'b.csv'])
    // The model names the file; without its bytes the step says what is missing.
    const noBytes = await exec(page, {
      action_type: 'upload',
      params: { semantic_locator: 'Attachment', value: 'cv.pdf' },
    })
    expect(noBytes.ok || [noBytes.code, noBytes.message]).toEqual([
      'INVALID',
      'upload needs the file itself ("cv.pdf"): attach it in the panel, or give the pack step a file.',
    ])
  })

  test('contenteditable: the text replaces what was there and the page hears it', async () => {
    const page = await h.open('/native-inputs.html')
    okOf(await run(page, { action: 'fill', target: { semantic: 'Note' }, value: 'first draft' }))
    okOf(await run(page, { action: 'fill', target: { semantic: 'Note' }, value: 'Meet at 下午2点' }))
    expect((await state(page)).note).toBe('Meet at 下午2点')
    // Key by key too: synthetic key events insert nothing in contenteditable by themselves.
    okOf(await run(page, { action: 'type', target: { semantic: 'Note' }, value: 'typed, key by key' }))
    expect((await state(page)).note).toBe('typed, key by key')
  })

  test('Element Plus el-date-picker and Ant Design a-date-picker take "Sept 27 2018"', async () => {
    const page = await h.open('/native-inputs.html')
    const ep = okOf(await run(page, { action: 'select', target: { semantic: 'Start date' }, value: 'Sept 27 2018' }))
    expect(ep.changes!.value).toBe('2018-09-27')
    expect((await state(page)).epDate).toBe('2018-09-27')
    const antd = await h.open('/antd-form.html')
    okOf(await exec(antd, { action_type: 'select', params: { semantic_locator: '日期', value: 'May 1, 2024' } }))
    expect((await state(antd)).form.date).toBe('2024-05-01')
  })
})

describe('rich editors', () => {
  test('Quill: its own model holds the text afterwards', async () => {
    const quill = readFileSync(resolve(import.meta.dirname, '../../node_modules/quill/dist/quill.js'), 'utf8')
    const css = readFileSync(resolve(import.meta.dirname, '../../node_modules/quill/dist/quill.snow.css'), 'utf8')
    h.server.page(
      '/quill.html',
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><style>${css}</style><script>${quill}</script></head><body>
<div id="editor" aria-label="Message body"><p>old text</p></div>
<script>
const q = new Quill('#editor', { theme: 'snow' })
window.__state = { get text() { return q.getText() } }
</script></body></html>`,
    )
    const page = await h.open('/quill.html')
    okOf(
      await run(page, { action: 'fill', target: { selectors: ['css:#editor .ql-editor'] }, value: 'Hello from Ava' }),
    )
    // Quill's model, not only its DOM: getText() ends with the newline Quill always keeps.
    expect((await state(page)).text).toBe('Hello from Ava\n')
    okOf(
      await run(page, { action: 'type', target: { selectors: ['css:#editor .ql-editor'] }, value: 'Typed in Quill' }),
    )
    expect((await state(page)).text).toBe('Typed in Quill\n')
  })

  test('ProseMirror: the document in its state holds the text afterwards', async () => {
    // ProseMirror ships ES modules only: bundle a minimal editor for the page, as an app would.
    const editor = await build({
      stdin: {
        contents: `import { EditorState } from 'prosemirror-state'
import { EditorView } from 'prosemirror-view'
import { schema, } from 'prosemirror-schema-basic'
const doc = schema.node('doc', null, [schema.node('paragraph', null, [schema.text('old text')])])
const view = new EditorView(document.querySelector('#pm'), { state: EditorState.create({ doc }), attributes: { 'aria-label': 'Comment body' } })
window.__state = { get text() { return view.state.doc.textContent } }`,
        resolveDir: resolve(import.meta.dirname, '../..'),
      },
      bundle: true,
      format: 'iife',
      write: false,
      logLevel: 'silent',
    })
    h.server.page(
      '/prosemirror.html',
      `<!doctype html><html lang="en"><head><meta charset="utf-8"></head><body><div id="pm"></div><script>${editor.outputFiles[0].text}</script></body></html>`,
    )
    const page = await h.open('/prosemirror.html')
    okOf(await run(page, { action: 'fill', target: { semantic: 'Comment body' }, value: 'Hello ProseMirror' }))
    expect((await state(page)).text).toBe('Hello ProseMirror')
  })
})
