// The background's side of cross-origin frames: which frames it asks, what it merges
// into the listing, where a step on a frame's element goes. The tab is simulated: its frames as
// webNavigation reports them, and each frame's content script as a function that answers (or not).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { ElementRecord, FrameInfo, PageSnapshot } from '../../src/core/page/snapshot'
import type { PageInfo } from '../../src/messaging/protocol'
import { fake } from '../storage/fake-browser'

type Answer = (req: { request?: string }) => Promise<{ ok: true; snapshot: PageSnapshot }>
interface SimFrame {
  frameId: number
  parentFrameId: number
  url: string
  documentId: string
  answer?: Answer
}
let tab: SimFrame[] = []
const asked: number[] = []

vi.mock('webextension-polyfill', () => ({
  default: {
    ...fake.browser,
    runtime: { getURL: (p: string) => `chrome-extension://ava/${p}` },
    webNavigation: {
      getAllFrames: async () => [
        { frameId: 0, parentFrameId: -1, url: 'https://shop.test/', documentId: 'top' },
        ...tab,
      ],
    },
  },
}))
vi.mock('../../src/messaging', () => ({
  async sendToTab(
    _tabId: number,
    name: string,
    req: { request?: string },
    target: { documentId?: string; frameId?: number },
  ) {
    const f = tab.find((x) => x.documentId === target.documentId)
    if (!f) throw new Error(`No document with id ${target.documentId}`)
    asked.push(f.frameId)
    if (name !== 'bg→content:command' || (req as { kind?: string }).kind !== 'frame.read' || !f.answer)
      throw new Error('Could not establish connection. Receiving end does not exist.')
    return f.answer(req)
  },
}))

const { withFrames, frameTarget, outcomeFromFrame } = await import('../../src/background/frames')

const button = (id: string, label: string, y = 10): ElementRecord => ({
  id,
  type: 'button',
  role: 'button',
  tagName: 'button',
  className: '',
  text: label,
  label: '',
  actions: ['click'],
  state: { disabled: false },
  region: 'page',
  bounds: { x: 10, y, width: 80, height: 30 },
  inViewport: true,
  relations: [],
  attrs: {},
})
const restricted = (id: string, url: string, y = 100): FrameInfo => ({
  id,
  url,
  bounds: { x: 20, y, width: 304, height: 154 },
  isVisible: true,
  status: 'cross_origin_restricted',
})
const snap = (url: string, elements: ElementRecord[], frames: FrameInfo[] = []): PageSnapshot => ({
  url,
  title: url,
  revision: 1,
  viewport: { width: 300, height: 150, scrollX: 0, scrollY: 0 },
  pageType: 'unknown',
  intents: [],
  regions: [
    { id: 'page', kind: 'page', label: '', bounds: { x: 0, y: 0, width: 300, height: 150 }, elements: elements.length },
  ],
  summary: '',
  elements,
  content: [],
  groups: [],
  frames,
  lazyRegions: [],
  stats: { elements: elements.length, interactive: elements.length, scanMs: 1 },
})
const answers =
  (s: PageSnapshot): Answer =>
  async () => ({ ok: true, snapshot: structuredClone(s) })
const topInfo = (frames: FrameInfo[]): PageInfo => ({
  url: 'https://shop.test/',
  title: 'Shop',
  listing: 'the top frame’s own listing',
  note: '(note)\n',
  snapshot: { ...snap('https://shop.test/', [button('btn_checkout', 'Checkout')], frames), title: 'Shop' },
})

beforeEach(() => {
  fake.reset()
  tab = []
  asked.length = 0
})
afterEach(() => vi.useRealTimers())

describe('reading a page with cross-origin frames', () => {
  it('lists a frame’s elements under its prefix and routes a step on one to that frame, with the frame’s own id', async () => {
    tab = [
      {
        frameId: 7,
        parentFrameId: 0,
        url: 'https://pay.test/card',
        documentId: 'pay-1',
        answer: answers(snap('https://pay.test/card', [button('btn_pay', 'Pay')])),
      },
    ]
    const page = await withFrames(1, topInfo([restricted('frame_pay', 'https://pay.test/card')]), 'pay')
    expect(page.listing.startsWith('(note)\n# Shop')).toBe(true)
    expect(page.listing).toContain('frame_pay_btn_pay')
    expect(page.listing).not.toContain('cross_origin_restricted')
    expect(page).not.toHaveProperty('snapshot')
    expect(await frameTarget(1, 'frame_pay_btn_pay')).toEqual({
      route: { prefix: 'frame_pay', frameId: 7, documentId: 'pay-1', url: 'https://pay.test/card' },
      local: 'btn_pay',
    })
    expect(await frameTarget(1, 'btn_checkout')).toBeNull()
  })

  it('keeps a frame whose content script cannot answer as cross_origin_restricted, and the top frame’s listing as it was', async () => {
    tab = [{ frameId: 7, parentFrameId: 0, url: 'https://pay.test/card', documentId: 'pay-1' }]
    const page = await withFrames(1, topInfo([restricted('frame_pay', 'https://pay.test/card')]), 'pay')
    expect(asked).toEqual([7])
    expect(page.listing).toBe('the top frame’s own listing')
    expect(await frameTarget(1, 'frame_pay_btn_pay')).toBeNull()
  })

  it('gives up on a frame that stays silent, after a bounded wait', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] })
    tab = [
      {
        frameId: 7,
        parentFrameId: 0,
        url: 'https://slow.test/',
        documentId: 'slow-1',
        answer: () => new Promise(() => undefined),
      },
      {
        frameId: 8,
        parentFrameId: 0,
        url: 'https://pay.test/',
        documentId: 'pay-1',
        answer: answers(snap('https://pay.test/', [button('btn_pay', 'Pay')])),
      },
    ]
    const reading = withFrames(
      1,
      topInfo([restricted('frame_slow', 'https://slow.test/'), restricted('frame_pay', 'https://pay.test/', 300)]),
      '',
    )
    await vi.advanceTimersByTimeAsync(3_000)
    const page = await reading
    expect(page.listing).toContain('frame_slow cross_origin_restricted https://slow.test/')
    expect(page.listing).toContain('frame_pay_btn_pay')
  })

  it('fills a cross-origin frame inside a cross-origin frame, and routes its elements straight to it', async () => {
    tab = [
      {
        frameId: 7,
        parentFrameId: 0,
        url: 'https://pay.test/',
        documentId: 'pay-1',
        answer: answers(
          snap('https://pay.test/', [button('btn_pay', 'Pay')], [restricted('frame_3ds', 'https://bank.test/3ds', 40)]),
        ),
      },
      {
        frameId: 9,
        parentFrameId: 7,
        url: 'https://bank.test/3ds',
        documentId: 'bank-1',
        answer: answers(snap('https://bank.test/3ds', [button('btn_approve', 'Approve')])),
      },
    ]
    const page = await withFrames(1, topInfo([restricted('frame_pay', 'https://pay.test/')]), '')
    expect(page.listing).toContain('frame_pay_frame_3ds_btn_approve')
    expect(await frameTarget(1, 'frame_pay_frame_3ds_btn_approve')).toMatchObject({
      route: { frameId: 9, documentId: 'bank-1' },
      local: 'btn_approve',
    })
    expect(await frameTarget(1, 'frame_pay_btn_pay')).toMatchObject({ route: { frameId: 7 }, local: 'btn_pay' })
  })

  it('tells apart two frames that both navigated away from their src by the size of their viewports', async () => {
    const sized = (s: PageSnapshot, width: number, height: number): PageSnapshot => ({
      ...s,
      viewport: { ...s.viewport, width, height },
    })
    tab = [
      {
        frameId: 7,
        parentFrameId: 0,
        url: 'https://b.test/next',
        documentId: 'b-2',
        answer: answers(sized(snap('https://b.test/next', [button('btn_b', 'B')]), 600, 400)),
      },
      {
        frameId: 8,
        parentFrameId: 0,
        url: 'https://a.test/next',
        documentId: 'a-2',
        answer: answers(sized(snap('https://a.test/next', [button('btn_a', 'A')]), 300, 150)),
      },
    ]
    const big: FrameInfo = {
      ...restricted('frame_b', 'https://b.test/', 300),
      bounds: { x: 20, y: 300, width: 604, height: 404 },
    }
    await withFrames(1, topInfo([restricted('frame_a', 'https://a.test/'), big]), '')
    expect(await frameTarget(1, 'frame_a_btn_a')).toMatchObject({ route: { frameId: 8 } })
    expect(await frameTarget(1, 'frame_b_btn_b')).toMatchObject({ route: { frameId: 7 } })
  })

  it('never asks Ava’s own panel frame, nor frames the scan saw as hidden', async () => {
    tab = [
      {
        frameId: 3,
        parentFrameId: 0,
        url: 'chrome-extension://ava/src/panel/index.html',
        documentId: 'panel',
        answer: answers(snap('x', [button('btn_send', 'Send')])),
      },
      {
        frameId: 4,
        parentFrameId: 0,
        url: 'https://ads.test/',
        documentId: 'ad',
        answer: answers(snap('x', [button('btn_ad', 'Ad')])),
      },
      {
        frameId: 7,
        parentFrameId: 0,
        url: 'https://pay.test/',
        documentId: 'pay-1',
        answer: answers(snap('https://pay.test/', [button('btn_pay', 'Pay')])),
      },
    ]
    const hidden: FrameInfo = { ...restricted('frame_ad', 'https://ads.test/'), isVisible: false, status: 'hidden' }
    const page = await withFrames(1, topInfo([hidden, restricted('frame_pay', 'https://pay.test/')]), '')
    expect(asked).toEqual([7])
    expect(page.listing).not.toMatch(/btn_send|btn_ad/)
  })

  it('forgets the routes of the last page when the next one has no cross-origin frame', async () => {
    tab = [
      {
        frameId: 7,
        parentFrameId: 0,
        url: 'https://pay.test/',
        documentId: 'pay-1',
        answer: answers(snap('https://pay.test/', [button('btn_pay', 'Pay')])),
      },
    ]
    await withFrames(1, topInfo([restricted('frame_pay', 'https://pay.test/')]), '')
    expect(await frameTarget(1, 'frame_pay_btn_pay')).not.toBeNull()
    await withFrames(1, { url: 'https://shop.test/next', title: 'Next', listing: 'x' }, '')
    expect(await frameTarget(1, 'frame_pay_btn_pay')).toBeNull()
  })
})

describe('a frame’s answer to a step', () => {
  it('names candidates with the listing’s ids and drops selectors that would point into the top document', () => {
    const out = outcomeFromFrame(
      {
        ok: false,
        code: 'AMBIGUOUS',
        message: 'two',
        candidates: [
          { id: 'btn_pay', label: 'Pay', score: 0.9 },
          { id: 'css:#x', label: 'X', score: 0.5 },
        ],
      },
      'frame_pay',
    )
    expect(out).toMatchObject({ candidates: [{ id: 'frame_pay_btn_pay', label: 'Pay', score: 0.9 }] })
  })
})
