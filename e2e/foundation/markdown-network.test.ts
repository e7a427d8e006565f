// The answer's markdown fetches nothing until the person clicks. A model that obeys
// a page can answer with any HTML; every construct a browser loads by itself points at the site
// server, whose log must stay empty of them until a link is clicked.
import { expect, it } from 'vitest'
import { instructionChunks, sendAndWait, withAgentWorld, type Ava } from '../support/ava'
import type { LlmServer } from '../support/llm-server'
import type { SiteServer } from '../support/site-server'

let ava: Ava
let llm: LlmServer
let site: SiteServer
withAgentWorld((w) => ({ ava, llm, site } = w))

/** Long enough for a browser to have started any load an element asks for. */
const kSettleMs = 1_500

/** One HTML construct per way of fetching without a click, each at its own path. */
function fetchingAnswer(base: string): string {
  const u = (name: string) => `${base}/leak/${name}`
  return [
    'Here is what I found. END-OF-TOP',
    '',
    `![a chart](${u('md-image')} "Chart")`,
    '',
    `![by reference][chart]`,
    '',
    `[chart]: ${u('md-ref-image')}`,
    '',
    `<img src="${u('img-src')}"> <img srcset="${u('img-srcset')} 1x"> <img lowsrc="${u('img-lowsrc')}"> <image src="${u('image-tag')}">`,
    `<picture><source srcset="${u('picture-source')}"><img alt="p"></picture>`,
    `<video poster="${u('video-poster')}" src="${u('video-src')}" autoplay><source src="${u('video-source')}"><track src="${u('video-track')}" default></video>`,
    `<audio src="${u('audio-src')}" autoplay></audio>`,
    `<table background="${u('table-background')}"><tr><td background="${u('td-background')}">cell</td><th background="${u('th-background')}">head</th></tr></table>`,
    `<link rel="stylesheet" href="${u('link-stylesheet')}"><link rel="preload" as="image" href="${u('link-preload')}"><link rel="prefetch" href="${u('link-prefetch')}"><link rel="icon" href="${u('link-icon')}">`,
    `<style>@import url("${u('style-import')}"); .x { background: url("${u('style-url')}") }</style><span class="x">styled</span>`,
    `<p style="background-image: url('${u('inline-style')}')">inline style</p><div style="content: url('${u('inline-content')}')">c</div>`,
    `<svg width="10" height="10"><image href="${u('svg-image')}"/><image xlink:href="${u('svg-xlink')}"/><use href="${u('svg-use')}#a"/><feImage href="${u('svg-feimage')}"/><style>@import "${u('svg-style')}";</style></svg>`,
    `<object data="${u('object-data')}"></object><embed src="${u('embed-src')}">`,
    `<iframe src="${u('iframe-src')}"></iframe><frameset><frame src="${u('frame-src')}"></frameset>`,
    `<input type="image" src="${u('input-image')}">`,
    `<meta http-equiv="refresh" content="0;url=${u('meta-refresh')}">`,
    `<base href="${base}/leak/base/"><a href="relative">relative</a>`,
    `<body background="${u('body-background')}"><script src="${u('script-src')}"></script>`,
    `<math><mglyph src="${u('mglyph')}"></mglyph></math>`,
    '',
    `A link to click: [open the report](${u('clicked')}). END-OF-ANSWER`,
  ].join('\n')
}

const leaks = () => site.hits.filter((h) => h.path.startsWith('/leak/')).map((h) => h.path)

it('renders an answer full of fetching HTML without a single request, until a link is clicked', async () => {
  const page = await ava.context.newPage()
  await page.goto(`${site.url}/about`)
  const panel = await ava.openPanel(page)
  llm.script({
    chunks: instructionChunks([{ step_id: 1, action_type: 'done', params: { answer: fetchingAnswer(site.url) } }]),
  })
  await sendAndWait(panel, 'what is on this page?')
  const last = panel.locator('[data-role=assistant]').last()
  await expect.poll(() => last.locator('[data-test=text]').textContent()).toContain('END-OF-ANSWER')
  await page.waitForTimeout(kSettleMs)
  expect(leaks()).toEqual([])

  // A markdown image is a link the person may open; nothing loaded it before.
  const image = last.locator(`a[href="${site.url}/leak/md-image"]`)
  expect(await image.textContent()).toContain('a chart')
  const opened = ava.context.waitForEvent('page')
  await last.locator(`a[href="${site.url}/leak/clicked"]`).click()
  await (await opened).waitForLoadState()
  await expect.poll(leaks).toEqual(['/leak/clicked'])
  await page.close()
})

it('keeps the panel page from loading remote images and styles even if markup gets past the sanitiser', async () => {
  const page = await ava.context.newPage()
  await page.goto(`${site.url}/about`)
  const panel = await ava.openPanel(page)
  // What a sanitiser bug would let through: the page's CSP is the second wall.
  await panel.evaluate((base) => {
    const box = document.createElement('div')
    box.innerHTML = `<img src="${base}/leak/csp-img"><video poster="${base}/leak/csp-poster"></video><audio src="${base}/leak/csp-audio" autoplay></audio><link rel="stylesheet" href="${base}/leak/csp-style"><p style="background:url(${base}/leak/csp-bg)">x</p><object data="${base}/leak/csp-object"></object><iframe src="${base}/leak/csp-frame"></iframe>`
    document.body.append(box)
    const font = new FontFace('Leak', `url(${base}/leak/csp-font)`)
    void font.load().catch(() => undefined)
  }, site.url)
  await page.waitForTimeout(kSettleMs)
  expect(leaks()).toEqual([])
  await page.close()
})
