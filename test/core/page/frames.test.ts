// Pairing a snapshot's frame entries with the tab's frames, and routing ids to them.
import { describe, expect, test } from 'vitest'
import { matchFrames, routeOf, type TabFrame } from '../../../src/core/page/frames'
import type { FrameInfo, FrameStatus } from '../../../src/core/page/snapshot'

const entry = (
  id: string,
  url: string,
  status: FrameStatus = 'cross_origin_restricted',
  size = { width: 304, height: 154 },
): FrameInfo => ({
  id,
  url,
  bounds: { x: 0, y: 0, ...size },
  isVisible: status !== 'hidden',
  status,
})
const frame = (
  frameId: number,
  url: string,
  parentFrameId = 0,
  viewport?: { width: number; height: number },
): TabFrame => ({ frameId, parentFrameId, url, ...(viewport ? { viewport } : {}) })
/** The match as `entry id → frame id`, easier to read in a failure. */
const ids = (m: Map<string, TabFrame>) => Object.fromEntries([...m].map(([id, f]) => [id, f.frameId]))

describe('matchFrames', () => {
  test('one entry and one frame with the same URL pair, whatever the fragment', () => {
    const m = matchFrames(
      [entry('frame_pay', 'https://pay.test/card#top'), entry('frame_ad', 'https://ads.test/x', 'hidden')],
      [frame(9, 'https://ads.test/x'), frame(4, 'https://pay.test/card')],
      0,
    )
    expect(ids(m)).toEqual({ frame_pay: 4, frame_ad: 9 })
  })

  test('only the frames of the host are candidates', () => {
    const m = matchFrames([entry('frame_pay', 'https://pay.test/')], [frame(4, 'https://pay.test/', 3)], 0)
    expect(ids(m)).toEqual({})
  })

  test('frames with the same URL pair in document order against frame id order', () => {
    const m = matchFrames(
      [entry('frame_a', 'https://w.test/'), entry('frame_b', 'https://w.test/')],
      [frame(12, 'https://w.test/'), frame(7, 'https://w.test/')],
      0,
    )
    expect(ids(m)).toEqual({ frame_a: 7, frame_b: 12 })
  })

  test('a viewport that fits one box only decides before order', () => {
    const small = { width: 200, height: 100 }
    const big = { width: 600, height: 400 }
    const m = matchFrames(
      [
        entry('frame_a', 'https://w.test/', 'cross_origin_restricted', { width: 604, height: 404 }),
        entry('frame_b', 'https://w.test/', 'cross_origin_restricted', { width: 204, height: 104 }),
      ],
      [frame(7, 'https://w.test/', 0, small), frame(12, 'https://w.test/', 0, big)],
      0,
    )
    expect(ids(m)).toEqual({ frame_a: 12, frame_b: 7 })
  })

  test('more frames than entries with one URL, and no sizes to tell them apart: none is guessed', () => {
    const m = matchFrames(
      [entry('frame_a', 'https://w.test/')],
      [frame(7, 'https://w.test/'), frame(12, 'https://w.test/')],
      0,
    )
    expect(ids(m)).toEqual({})
  })

  test('a frame that navigated since its src was set pairs when it is the only one left', () => {
    const m = matchFrames(
      [entry('frame_login', 'https://id.test/login'), entry('frame_pay', 'https://pay.test/')],
      [frame(4, 'https://pay.test/'), frame(5, 'https://id.test/login/step2?x=1')],
      0,
    )
    expect(ids(m)).toEqual({ frame_pay: 4, frame_login: 5 })
  })

  test('two navigated frames pair by size, or not at all', () => {
    const entries = [
      entry('frame_a', 'https://a.test/', 'cross_origin_restricted', { width: 304, height: 154 }),
      entry('frame_b', 'https://b.test/', 'cross_origin_restricted', { width: 504, height: 304 }),
    ]
    expect(ids(matchFrames(entries, [frame(4, 'https://a.test/next'), frame(5, 'https://b.test/next')], 0))).toEqual({})
    const sized = [
      frame(4, 'https://b.test/next', 0, { width: 500, height: 300 }),
      frame(5, 'https://a.test/next', 0, { width: 300, height: 150 }),
    ]
    expect(ids(matchFrames(entries, sized, 0))).toEqual({ frame_a: 5, frame_b: 4 })
  })

  test('entries inside a same-origin frame the scan merged are matched among that frame’s children', () => {
    const m = matchFrames(
      [
        entry('frame_shell', 'https://shop.test/shell', 'merged'),
        entry('frame_shell_frame_pay', 'https://pay.test/'),
        entry('frame_pay', 'https://pay.test/'),
      ],
      [frame(3, 'https://shop.test/shell'), frame(8, 'https://pay.test/', 3), frame(9, 'https://pay.test/')],
      0,
    )
    expect(ids(m)).toEqual({ frame_shell: 3, frame_pay: 9, frame_shell_frame_pay: 8 })
  })

  test('a subframe is the host of its own entries', () => {
    const m = matchFrames(
      [entry('frame_inner', 'https://inner.test/')],
      [frame(8, 'https://inner.test/', 5), frame(9, 'https://inner.test/')],
      5,
    )
    expect(ids(m)).toEqual({ frame_inner: 8 })
  })
})

describe('routeOf', () => {
  const routes = [{ prefix: 'frame_a' }, { prefix: 'frame_a_frame_b' }, { prefix: 'frame_c' }]

  test('an element of a routed frame goes there with the id the frame gave it', () => {
    expect(routeOf('frame_c_btn_pay', routes)).toEqual({ route: { prefix: 'frame_c' }, local: 'btn_pay' })
  })

  test('the longest routed prefix wins: a nested cross-origin frame is reached directly', () => {
    expect(routeOf('frame_a_frame_b_input_card', routes)).toEqual({
      route: { prefix: 'frame_a_frame_b' },
      local: 'input_card',
    })
    // A same-origin frame inside frame a is frame a's to resolve.
    expect(routeOf('frame_a_frame_x_btn_ok', routes)).toEqual({ route: { prefix: 'frame_a' }, local: 'frame_x_btn_ok' })
  })

  test('ids of the top document, of unrouted frames and prefixes that only look alike have no route', () => {
    expect(routeOf('btn_pay', routes)).toBeNull()
    expect(routeOf('frame_d_btn_pay', routes)).toBeNull()
    expect(routeOf('frame_cc_btn_pay', routes)).toBeNull()
    expect(routeOf('frame_c_', routes)).toBeNull()
  })
})
