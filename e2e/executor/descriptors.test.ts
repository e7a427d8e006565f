/**
 * Descriptors as people write them, through the real ladder in Chromium on real
 * Element Plus and Ant Design Vue components: role-only and Chinese descriptors, ordinals, a
 * dialog-scoped `x`, a span styled as a link, an ambiguous pair, and a settled page that fails
 * fast into a fallback that still has candidates.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { Page } from 'playwright-core'
import { locate, okOf, run, startHarness, state, type Harness } from './harness'

let h: Harness
beforeAll(async () => {
  h = await startHarness()
  h.server.page('/descriptors-ep.html', kEpPage)
  h.server.page('/descriptors-antd.html', kAntdPage)
  h.server.page('/descriptors-plain.html', kPlainPage)
  h.server.page('/descriptors-docs.html', kDocsPage)
  h.server.page('/descriptors-icons.html', kIconsPage)
})
afterAll(() => h?.close())

/** The page counts as settled only once it is older than a fresh document (wait.ts kFreshDocumentMs). */
async function settledPage(page: Page): Promise<void> {
  await page.waitForFunction(() => performance.now() > 3_500, undefined, { timeout: 10_000 })
}

describe('Element Plus', () => {
  let page: Page
  beforeAll(async () => {
    page = await h.open('/descriptors-ep.html')
  })

  test('role-only descriptors find the one field of their kind, in English and Chinese', async () => {
    for (const say of ['the text field', '文本框', 'a text box'])
      expect((await locate(page, say)).mark, say).toBe('name')
    for (const say of ['the date field', '日期', '日期选择框'])
      expect((await locate(page, say)).mark, say).toBe('birthday')
    expect((await locate(page, 'the switch')).mark).toBe('notify')
    expect((await locate(page, '开关')).mark).toBe('notify')
  })

  test('ordinals count in reading order among the elements of the kind', async () => {
    expect((await locate(page, 'the second checkbox')).mark).toBe('travel')
    expect((await locate(page, '第二个复选框')).mark).toBe('travel')
    expect((await locate(page, 'the last checkbox')).mark).toBe('music')
    expect((await locate(page, '第一个复选框')).mark).toBe('read')
    const why = (await locate(page, 'the second checkbox')).why ?? ''
    expect(why).toMatch(/number 2 of 3/)
  })

  test('three checkboxes and no ordinal is ambiguous, with all three as candidates', async () => {
    const r = await locate(page, 'the checkbox')
    expect(r.code).toBe('AMBIGUOUS')
    expect(r.candidates.map((c) => c.label).sort()).toEqual(['旅行', '阅读', '音乐'])
  })

  test('"a checkbox" (一个复选框) takes the first of the three in reading order', async () => {
    for (const say of ['a checkbox', '一个复选框']) {
      const r = await locate(page, say)
      expect(r.ok, say).toBe(true)
      expect(r.why, say).toMatch(/"a": the first of 3 in reading order/)
      expect(r.candidates[0].label, say).toBe('阅读')
    }
  })

  test('the x of the dialog is the el-dialog close button', async () => {
    for (const say of [
      'the x of the dialog',
      '对话框里的关闭按钮',
      'close "x" button of the dialog',
      'close the dialog',
    ]) {
      const r = await locate(page, say)
      expect(r.mark, say).toBe('dialog-close')
    }
    // Scope restricts: "确定" in the dialog is the dialog's button, not the toolbar's.
    expect((await locate(page, '"确定" in the dialog')).mark).toBe('dialog-ok')
  })

  test('two equal buttons are AMBIGUOUS with both as candidates, never a guess', async () => {
    const r = await locate(page, '删除按钮')
    expect(r.code).toBe('AMBIGUOUS')
    expect(r.candidates.filter((c) => c.label === '删除')).toHaveLength(2)
  })

  test('scope by row text chooses between them', async () => {
    expect((await locate(page, '删除 in the row of 张三')).mark).toBe('del-zhang')
    expect((await locate(page, '李四那一行的删除按钮')).mark).toBe('del-li')
  })

  test('a candidate says why it scored', async () => {
    const r = await locate(page, 'the 用户名 field')
    expect(r.mark).toBe('name')
    expect(r.candidates[0].why).toMatch(/用户→name|户名→name/)
  })

  test('the dialog closes by its x; then a check by ordinal lands, and the outcome says why', async () => {
    // The open dialog covers the form (Element Plus's overlay takes the clicks even when not modal).
    okOf(await run(page, { action: 'click', target: { semantic: 'the x of the dialog' } }))
    // Element Plus closes after its leave transition.
    await page.waitForFunction(
      () => !(window as any).__state.dialog && !document.querySelector('.desc-dialog')?.checkVisibility(),
      undefined,
      { timeout: 10_000 },
    )
    const out = okOf(await run(page, { action: 'check', target: { semantic: '第二个复选框' } }))
    expect((await state(page)).hobbies).toEqual(['travel'])
    expect(out.why).toMatch(/number 2 of 3 in reading order/)
  })
})

describe('Ant Design Vue', () => {
  test('the modal close control by glyph and in Chinese; role-only field and checkbox', async () => {
    const page = await h.open('/descriptors-antd.html')
    for (const say of ['the x', '关闭按钮', 'the close button of the modal', '×'])
      expect((await locate(page, say)).mark, say).toBe('modal-close')
    expect((await locate(page, '输入框')).mark).toBe('email')
    expect((await locate(page, 'the checkbox')).mark).toBe('agree')
    expect((await locate(page, '复选框')).mark).toBe('agree')
  })
})

describe('plain pages', () => {
  test('link "augue" is a span styled as a link, and a click on it lands', async () => {
    const page = await h.open('/descriptors-plain.html')
    expect((await locate(page, 'link "augue"', 2_000, true)).mark).toBe('augue')
    expect((await locate(page, '链接"augue"', 2_000, true)).mark).toBe('augue')
    okOf(await run(page, { action: 'click', target: { semantic: 'link "augue"' } }))
    expect((await state(page)).clicked).toBe('augue')
  })

  test('a documentation page: a script-made « toggle, the first search result, and candidates past hidden links', async () => {
    const page = await h.open('/descriptors-docs.html')
    for (const say of ['the « button', 'the collapse sidebar button', '折叠侧边栏'])
      expect((await locate(page, say)).mark, say).toBe('toggle')
    // The page shows "Search Results" too: the first link of the page is not the first result.
    for (const say of ['the first search result', '第一个搜索结果'])
      expect((await locate(page, say)).mark, say).toBe('r1')
    expect((await locate(page, '搜索结果 getcwdb')).mark).toBe('r2')
    const miss = await locate(page, 'purple elephant', 300)
    expect(miss.ok).toBe(false)
    expect(miss.candidates.length).toBeGreaterThan(0)
    expect(miss.candidates.every((c) => c.weak)).toBe(true)
  })

  test('a settled page fails fast, into a fallback with weak candidates', async () => {
    const page = await h.open('/descriptors-plain.html')
    await settledPage(page)
    const timeout = 8_000
    const r = await locate(page, 'the frobnicator button', timeout)
    expect(r.code).toBe('ELEMENT_NOT_FOUND')
    expect(r.ms).toBeLessThan(timeout / 2)
    expect(r.candidates.length).toBeGreaterThan(0)
    expect(r.candidates.every((c) => c.weak)).toBe(true)
    // Candidates by kind first: the buttons of the page.
    expect(r.candidates.map((c) => c.label)).toContain('Save')
  })

  test('a failed locate on a page of icon-only controls shows each candidate by its words, never an empty string', async () => {
    const page = await h.open('/descriptors-icons.html')
    await settledPage(page)
    const r = await locate(page, 'the frobnicator button', 8_000)
    expect(r.code).toBe('ELEMENT_NOT_FOUND')
    const labels = r.candidates.map((c) => c.label)
    expect(labels.length).toBeGreaterThan(1)
    for (const label of labels) expect(label.trim(), JSON.stringify(labels)).not.toBe('')
    // What a person sees around and on them: the toolbar's name, the drawn glyph's meaning.
    expect(
      labels.some((l) => l.includes('Formatting')),
      JSON.stringify(labels),
    ).toBe(true)
    expect(
      labels.some((l) => l.includes('dropdown')),
      JSON.stringify(labels),
    ).toBe(true)
  })

  test('a page that keeps changing is waited for until the timeout', async () => {
    const page = await h.open('/descriptors-plain.html')
    await settledPage(page)
    await page.evaluate(() => {
      const ticker = document.getElementById('ticker')!
      setInterval(() => (ticker.textContent = String(Date.now())), 100)
    })
    const timeout = 2_000
    const r = await locate(page, 'the frobnicator button', timeout)
    expect(r.code).toBe('ELEMENT_NOT_FOUND')
    expect(r.ms).toBeGreaterThanOrEqual(timeout - 100)
  })

  test('an element that appears while the page changes is found', async () => {
    const page = await h.open('/descriptors-plain.html')
    await settledPage(page)
    await page.evaluate(() => {
      const ticker = document.getElementById('ticker')!
      let n = 0
      const t = setInterval(() => {
        ticker.textContent = String(++n)
        if (n === 8) {
          clearInterval(t)
          document.body.insertAdjacentHTML('beforeend', '<button data-m="late">Publish</button>')
        }
      }, 100)
    })
    expect((await locate(page, 'the Publish button', 5_000)).mark).toBe('late')
  })
})

const kEpPage = `<!doctype html>
<html lang="zh"><head><meta charset="utf-8"><title>Descriptors: Element Plus</title>
<link rel="stylesheet" href="/vendor/element-plus.css">
<script src="/vendor/vue.js"></script><script src="/vendor/element-plus.js"></script></head>
<body>
<div id="app" style="padding: 20px; width: 760px">
  <el-form label-width="100px">
    <el-form-item label="用户名"><el-input v-model="state.name" data-m="name"></el-input></el-form-item>
    <el-form-item label="生日"><el-date-picker v-model="state.birthday" type="date" placeholder="选择日期"></el-date-picker></el-form-item>
    <el-form-item label="爱好">
      <el-checkbox-group v-model="state.hobbies">
        <el-checkbox value="read" data-m="read">阅读</el-checkbox>
        <el-checkbox value="travel" data-m="travel">旅行</el-checkbox>
        <el-checkbox value="music" data-m="music">音乐</el-checkbox>
      </el-checkbox-group>
    </el-form-item>
    <el-form-item label="通知"><el-switch v-model="state.notify" data-m="notify"></el-switch></el-form-item>
  </el-form>
  <table>
    <tr><td>张三</td><td><el-button type="danger" data-m="del-zhang" @click="state.deleted = '张三'">删除</el-button></td></tr>
    <tr><td>李四</td><td><el-button type="danger" data-m="del-li" @click="state.deleted = '李四'">删除</el-button></td></tr>
  </table>
  <el-button data-m="toolbar-ok">确定</el-button>
  <el-dialog v-model="state.dialog" title="编辑地址" :modal="false" class="desc-dialog">
    <span>收货地址</span>
    <template #footer><el-button>取消</el-button><el-button type="primary" data-m="dialog-ok">确定</el-button></template>
  </el-dialog>
</div>
<script>
const { createApp, reactive, readonly, onMounted, nextTick } = Vue
createApp({
  setup() {
    const state = reactive({ name: '', birthday: '', hobbies: [], notify: false, deleted: '', dialog: true })
    window.__state = readonly(state)
    // The dialog's close button and the picker's input take no attributes: marked once they exist.
    onMounted(() => nextTick(() => {
      document.querySelector('.desc-dialog .el-dialog__headerbtn')?.setAttribute('data-m', 'dialog-close')
      document.querySelector('.el-date-editor input')?.setAttribute('data-m', 'birthday')
    }))
    return { state }
  },
}).use(ElementPlus).mount('#app')
</script>
</body></html>`

const kAntdPage = `<!doctype html>
<html lang="zh"><head><meta charset="utf-8"><title>Descriptors: Ant Design Vue</title>
<link rel="stylesheet" href="/vendor/antd-reset.css">
<script src="/vendor/vue.js"></script><script src="/vendor/dayjs.js"></script>
<script src="/vendor/dayjs-advancedFormat.js"></script><script src="/vendor/dayjs-customParseFormat.js"></script><script src="/vendor/dayjs-localeData.js"></script>
<script src="/vendor/dayjs-quarterOfYear.js"></script><script src="/vendor/dayjs-weekOfYear.js"></script><script src="/vendor/dayjs-weekYear.js"></script><script src="/vendor/dayjs-weekday.js"></script>
<script src="/vendor/antd.js"></script></head>
<body>
<div id="app" style="padding: 20px; width: 700px">
  <p>Invite a member</p>
  <a-modal v-model:open="state.open" title="邀请成员" wrap-class-name="desc-modal">
    <a-form layout="vertical">
      <a-form-item label="邮箱"><a-input v-model:value="state.email" data-m="email"></a-input></a-form-item>
      <a-checkbox v-model:checked="state.agree" data-m="agree">发送邀请邮件</a-checkbox>
    </a-form>
  </a-modal>
</div>
<script>
const { createApp, reactive, readonly, onMounted, nextTick } = Vue
createApp({
  setup() {
    const state = reactive({ open: true, email: '', agree: false })
    window.__state = readonly(state)
    const mark = () => {
      const close = document.querySelector('.desc-modal .ant-modal-close')
      if (close) close.setAttribute('data-m', 'modal-close')
      else setTimeout(mark, 50)
    }
    onMounted(() => nextTick(mark))
    return { state }
  },
}).use(antd).mount('#app')
</script>
</body></html>`

const kPlainPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Descriptors: plain</title>
<style>.link { color: #06c; text-decoration: underline; cursor: pointer }</style></head>
<body>
<p>Lorem ipsum dolor sit amet, <span class="link" data-m="augue">augue</span> vitae elit.</p>
<button data-m="save">Save</button> <button>Cancel</button>
<label>Search <input name="q"></label>
<p id="ticker">0</p>
<script>
window.__state = { clicked: '' }
// A click handler added by script: no href, no role, no onclick attribute.
document.querySelector('.link').addEventListener('click', () => { window.__state.clicked = 'augue'; document.getElementById('ticker').textContent = 'clicked' })
</script>
</body></html>`

const kDocsPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Descriptors: docs</title></head>
<body>
<div class="related"><a href="/" data-m="home">Python</a> <a href="/search">Search</a></div>
<div class="sphinxsidebar">
  <ul style="display: none">${Array.from({ length: 300 }, (_, i) => `<li><a href="#s${i}">Section ${i}</a></li>`).join('')}</ul>
  <div id="sidebarbutton" title="Collapse sidebar" style="cursor: pointer" data-m="toggle"><span>«</span></div>
</div>
<div class="body" role="main">
  <h2>Search Results</h2>
  <div id="search-results"><ul class="search">
    <li><a href="/os.html#getcwd" data-m="r1">os.getcwd</a></li>
    <li><a href="/os.html#getcwdb" data-m="r2">os.getcwdb</a></li>
  </ul></div>
</div>
<script>
window.__state = {}
document.getElementById('sidebarbutton').addEventListener('click', () => document.querySelector('.sphinxsidebar').classList.toggle('collapsed'))
</script>
</body></html>`

/** Controls that show no text of their own: a toolbar of icon buttons and a ▾ toggle. */
const kIconsPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Descriptors: icons</title></head>
<body>
<div role="toolbar" aria-label="Formatting">
  <button data-m="square"><svg width="16" height="16" viewBox="0 0 16 16"><rect width="16" height="16"/></svg></button>
  <button data-m="circle"><svg width="16" height="16" viewBox="0 0 16 16"><circle cx="8" cy="8" r="8"/></svg></button>
</div>
<button data-m="caret">▾</button>
<script>window.__state = {}</script>
</body></html>`
