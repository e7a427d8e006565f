/**
 * Controls named by something other than their name, through the real ladder in Chromium on real
 * Element Plus and Bootstrap components (core/page/other-readings.ts, semantic/readings.ts):
 * an action said with the record it acts on ("remove 王芳", "把 Dune 加入购物车"), never another
 * record's and never the record itself; a picture said for its action ("the gear icon"); a
 * pager's "last page" counting its pages, not its arrows; "at the bottom"; "where I type my …".
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { Page } from 'playwright-core'
import { locate, startHarness, type Harness } from './harness'

let h: Harness
beforeAll(async () => {
  h = await startHarness()
  h.server.page('/readings-ep.html', kEpPage)
  h.server.page('/readings-bs.html', kBsPage)
})
afterAll(() => h?.close())

describe('Element Plus: a table of people with row actions, a pager', () => {
  let page: Page
  beforeAll(async () => {
    page = await h.open('/readings-ep.html')
    await page.waitForSelector('.el-pagination .number')
  })

  test.each([
    ['remove 王芳', 'del-wang'],
    ['删除李娜', 'del-li'],
    ['吊销“李娜”这个账号', 'revoke-li'],
    ['edit the Zhou Min row', 'edit-zhou'],
    ['编辑 Zhou Min', 'edit-zhou'],
  ])('"%s" is the action on that person\'s row: %s', async (said, mark) => {
    const r = await locate(page, said)
    expect(r.mark, JSON.stringify(r)).toBe(mark)
  })

  test('a control named for the action and its object is itself: "Delete account"', async () => {
    expect((await locate(page, 'Delete account')).mark).toBe('delete-account')
  })

  test("a person with no row: not found, never another row's Delete", async () => {
    const r = await locate(page, 'remove 赵六', 300)
    expect(r.ok).toBe(false)
    expect(r.mark).toBeUndefined()
  })

  test('"the last page" and "the first page" count the pager\'s pages, not its arrows', async () => {
    expect((await locate(page, 'the last page')).mark).toBe('page-last')
    expect((await locate(page, 'the first page')).mark).toBe('page-first')
  })

  test('a picture said for its action: the gear icon, 齿轮图标', async () => {
    expect((await locate(page, 'the gear icon')).mark).toBe('settings')
    expect((await locate(page, '齿轮图标')).mark).toBe('settings')
  })

  test('a field said by what is typed there', async () => {
    expect((await locate(page, 'where I type my work email')).mark).toBe('email')
  })

  test('said in English on a Chinese page: the field labelled 密码, not the "Forgot password?" link', async () => {
    expect((await locate(page, 'the password')).mark).toBe('password')
  })

  test('"the Ship button" is any of the 发货 buttons, not the batch one whose id says ship: ambiguous', async () => {
    const r = await locate(page, 'the Ship button', 300)
    expect(r.code).toBe('AMBIGUOUS')
  })

  test('"the last page" beside a "Page" box to type a number into is still the last numbered page', async () => {
    expect((await locate(page, 'the last page')).mark).toBe('page-last')
  })
})

describe('Bootstrap: product cards with repeated buttons, two pagers', () => {
  let page: Page
  beforeAll(async () => {
    page = await h.open('/readings-bs.html')
  })

  test.each([
    ['把 Dune 加入购物车', 'cart-dune'],
    ['add Neuromancer to cart', 'cart-neuro'],
    ['the heart on Dune', 'fav-dune'],
    ['share Neuromancer', 'share-neuro'],
  ])('"%s" is that card\'s button: %s', async (said, mark) => {
    expect((await locate(page, said)).mark).toBe(mark)
  })

  test('"Add to cart" alone is one of three: ambiguous, not a guess', async () => {
    const r = await locate(page, 'Add to cart')
    expect(r.ok).toBe(false)
    expect(r.code).toBe('AMBIGUOUS')
  })

  test('a near fit nothing else comes close to is taken: "the Billing menu" is the one "Billing 账单" link', async () => {
    expect((await locate(page, 'the Billing menu', 300)).mark).toBe('billing')
  })

  test('but never the thing an action is said on: "remove the Last 7 days filter" is not the filter\'s own label', async () => {
    const r = await locate(page, 'remove the Last 7 days filter', 300)
    expect(r.mark ?? 'none').not.toBe('filter-label')
  })

  test('"the Next link at the bottom" is the lower pager\'s, "at the top" the upper\'s', async () => {
    expect((await locate(page, 'the Next link at the bottom')).mark).toBe('next-bottom')
    expect((await locate(page, 'the Next link at the top')).mark).toBe('next-top')
  })
})

const kEpPage = `<!doctype html>
<html lang="zh"><head><meta charset="utf-8"><title>Readings: Element Plus</title>
<link rel="stylesheet" href="/vendor/element-plus.css">
<script src="/vendor/vue.js"></script><script src="/vendor/element-plus.js"></script></head>
<body>
<div id="app" style="padding: 20px; width: 900px">
  <div style="display:flex;justify-content:space-between">
    <el-input v-model="email" placeholder="name@company.com" style="width:300px" data-m="email">
      <template #prepend>Work email</template>
    </el-input>
    <el-tooltip content="Settings"><el-button circle data-m="settings" aria-label="Settings">
      <svg viewBox="0 0 24 24" width="16" height="16"><circle cx="12" cy="12" r="3"/><path d="M12 1v4M12 19v4M1 12h4M19 12h4"/></svg>
    </el-button></el-tooltip>
    <el-button type="danger" data-m="delete-account">Delete account</el-button>
    <el-button type="success" id="btn-batch-ship" data-m="batch-ship">批量发货</el-button>
  </div>
  <el-form label-width="80px" style="margin-top: 12px; width: 420px">
    <el-form-item label="密码"><el-input type="password" v-model="password" data-m="password"></el-input></el-form-item>
    <a href="#forgot" data-m="forgot">Forgot password? 忘记密码</a>
  </el-form>
  <el-table :data="rows" style="width: 100%; margin-top: 12px">
    <el-table-column prop="name" label="姓名"></el-table-column>
    <el-table-column prop="city" label="City"></el-table-column>
    <el-table-column label="操作">
      <template #default="{ row }">
        <el-button size="small" :data-m="'edit-' + row.key">编辑</el-button>
        <el-button size="small" link type="primary" :data-m="'revoke-' + row.key">吊销</el-button>
        <el-button size="small" type="danger" :data-m="'del-' + row.key">删除</el-button>
        <el-button size="small" :data-m="'ship-' + row.key">发货</el-button>
      </template>
    </el-table-column>
  </el-table>
  <el-pagination layout="prev, pager, next, jumper" :total="80" style="margin-top: 12px"></el-pagination>
</div>
<script>
const { createApp, ref, onMounted, nextTick } = Vue
createApp({
  setup() {
    const rows = [
      { key: 'wang', name: '王芳', city: 'Shanghai' },
      { key: 'li', name: '李娜', city: 'Beijing' },
      { key: 'zhou', name: 'Zhou Min', city: 'Shenzhen' },
    ]
    // The pager's numbers take no attributes: marked once they exist.
    onMounted(() => nextTick(() => {
      const numbers = document.querySelectorAll('.el-pagination .number')
      numbers[0]?.setAttribute('data-m', 'page-first')
      numbers[numbers.length - 1]?.setAttribute('data-m', 'page-last')
      window.__state = { mounted: true }
    }))
    return { rows, email: ref(''), password: ref('') }
  },
}).use(ElementPlus).mount('#app')
</script>
</body></html>`

const heart = `<svg viewBox="0 0 16 16" width="16" height="16"><path d="M8 14s-6-4-6-8a3 3 0 0 1 6-1 3 3 0 0 1 6 1c0 4-6 8-6 8z"/></svg>`
const card = (key: string, title: string) => `
  <div class="col"><div class="card"><div class="card-body">
    <h5 class="card-title">${title}</h5>
    <button class="btn btn-primary btn-sm" data-m="cart-${key}">Add to cart</button>
    <button class="btn btn-outline-secondary btn-sm" title="收藏" data-m="fav-${key}">${heart}</button>
    <button class="btn btn-link btn-sm" data-m="share-${key}">Share</button>
  </div></div></div>`
const pager = (where: string) => `
  <nav><ul class="pagination">
    <li class="page-item"><a class="page-link" href="#p1">1</a></li>
    <li class="page-item"><a class="page-link" href="#p2">2</a></li>
    <li class="page-item"><a class="page-link" href="#next" data-m="next-${where}">Next</a></li>
  </ul></nav>`

const kBsPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Readings: Bootstrap</title>
<link rel="stylesheet" href="/vendor/bootstrap.css"></head>
<body><div class="container py-3">
  <ul class="nav"><li class="nav-item"><a class="nav-link" href="#billing" data-m="billing">Billing 账单</a></li>
    <li class="nav-item"><a class="nav-link" href="#team">Team 团队</a></li></ul>
  <span class="badge text-bg-secondary"><a href="#f7" class="link-light" data-m="filter-label">Last 7 days</a></span>
  ${pager('top')}
  <div class="row row-cols-3 g-3">
    ${card('dune', 'Dune')}${card('neuro', 'Neuromancer')}${card('found', 'Foundation')}
  </div>
  ${pager('bottom')}
</div><script>window.__state = {}</script></body></html>`
