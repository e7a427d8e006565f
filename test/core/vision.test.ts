// The pure half of screenshots (docs/agent.md, "Screenshots"): mapping a screenshot's pixels back
// to the page, the schema of point, drag and screenshot steps, the policy, who is sent images and
// where none is ever taken.
import { fieldsOf } from '../../src/core/vocabulary'
import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { actionOf, pointOnPage, type ShotFrame } from '../../src/core/page/command'
import { safeParseInstruction } from '../../src/core/instruction/schema'
import { imageTokens, wantsScreenshot } from '../../src/core/agent/vision'
import { seesImages } from '../../src/core/providers'
import { DEFAULT_SETTINGS, screenshotAllowed } from '../../src/core/settings'
import { buildSystemPrompt } from '../../src/core/agent/prompt'

const shot: ShotFrame = { width: 1280, height: 800, viewWidth: 1600, viewHeight: 1000, scrollX: 0, scrollY: 2000 }

describe('pointOnPage', () => {
  it('maps a pixel of the scaled screenshot to the document: scale, then scroll', () => {
    expect(pointOnPage(shot, 640, 400)).toEqual({ x: 800, y: 2500 })
    expect(pointOnPage(shot, 0, 0)).toEqual({ x: 0, y: 2000 })
    expect(pointOnPage(shot, 1281, 10)).toBeNull()
  })
  it('is the inverse of drawing a document point into the screenshot, for any frame', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 200, max: 4000 }),
        fc.integer({ min: 200, max: 3000 }),
        fc.integer({ min: 0, max: 10_000 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (vw, vh, sy, fx, fy) => {
          const s = Math.min(1, 1280 / Math.max(vw, vh))
          const f: ShotFrame = { width: vw * s, height: vh * s, viewWidth: vw, viewHeight: vh, scrollX: 0, scrollY: sy }
          const p = pointOnPage(f, f.width * fx, f.height * fy)!
          expect(p.x).toBeCloseTo(vw * fx, 6)
          expect(p.y).toBeCloseTo(sy + vh * fy, 6)
        },
      ),
      { numRuns: 200 },
    )
  })
})

describe('point, drag and screenshot steps', () => {
  const parse = (v: object) => safeParseInstruction({ step_id: 1, ...v })
  it('a click may name a point instead of a locator, both coordinates or neither; 0 is a coordinate', () => {
    expect(parse({ action_type: 'click', params: { x: 0, y: 0 } }).success).toBe(true)
    const half = parse({ action_type: 'click', params: { x: 10 } })
    expect(half.success ? '' : half.error.message).toMatch(/both params.x and params.y/)
    expect(parse({ action_type: 'click', params: { x: -1, y: 3 } }).success).toBe(false)
    expect(parse({ action_type: 'drag', params: { path: [[1, 2]] } }).success).toBe(false)
    expect(
      parse({
        action_type: 'drag',
        params: {
          path: [
            [1, 2],
            [3, 4],
          ],
        },
      }).success,
    ).toBe(true)
    expect(parse({ action_type: 'screenshot', params: {} }).success).toBe(true)
  })
  it('becomes a page action at the document point; without the screenshot it names nowhere', () => {
    const click = parse({ action_type: 'click', params: { x: 640, y: 400 } })
    if (!click.success) throw click.error
    expect(actionOf(click.data, shot)).toEqual({
      action: 'click',
      target: { point: { x: 800, y: 2500 } },
      at: { x: 800, y: 2500 },
    })
    expect(fieldsOf(actionOf(click.data)!).target).toEqual({ point: { x: -1, y: -1 } })
    const drag = parse({
      action_type: 'drag',
      params: {
        path: [
          [0, 0],
          [1280, 800],
        ],
      },
    })
    if (!drag.success) throw drag.error
    expect(actionOf(drag.data, shot)).toEqual({
      action: 'drag',
      target: { point: { x: 0, y: 2000 } },
      path: [
        { x: 0, y: 2000 },
        { x: 1600, y: 3000 },
      ],
    })
  })
  it('only a model that sees is told about them', () => {
    expect(buildSystemPrompt({ vision: true })).toMatch(/drag, screenshot/)
    expect(buildSystemPrompt()).not.toMatch(/drag|screenshot|x and y/)
  })
})

describe('the policy', () => {
  it('first request, the model asking, or a poor listing; nothing else', () => {
    expect([
      wantsScreenshot({ first: true, asked: false, poor: false }),
      wantsScreenshot({ first: false, asked: true, poor: false }),
      wantsScreenshot({ first: false, asked: false, poor: true }),
      wantsScreenshot({ first: false, asked: false, poor: false }),
    ]).toEqual([true, true, true, false])
  })
  it('counts a 1280×800 screenshot as the providers do', () => {
    // Anthropic: 1280·800/750 = 1366; OpenAI: 1229×768 → 3×2 tiles → 85 + 6·170 = 1105.
    expect(imageTokens(1280, 800)).toBe(1366)
    expect(imageTokens(512, 512)).toBe(350)
  })
  it("a profile sees images by its own setting, else by its provider at the provider's own endpoint", () => {
    expect(seesImages({ provider: 'anthropic', baseUrl: 'https://api.anthropic.com/v1/' })).toBe(true)
    expect(seesImages({ provider: 'openai', baseUrl: 'https://api.deepseek.com/v1' })).toBe(false)
    expect(seesImages({ provider: 'local', baseUrl: 'http://localhost:11434/v1' })).toBe(false)
    expect(seesImages({ provider: 'local', baseUrl: 'http://localhost:11434/v1', vision: 'on' })).toBe(true)
    expect(seesImages({ provider: 'openai', baseUrl: 'https://api.openai.com/v1', vision: 'off' })).toBe(false)
  })
  it('never on a blocked site, a site switched off, or with screenshots off', () => {
    const s = (o: object) => ({ ...structuredClone(DEFAULT_SETTINGS), ...o })
    expect(screenshotAllowed('https://a.example/x', s({}))).toBe(true)
    expect(
      screenshotAllowed(
        'https://a.example/x',
        s({ safety: { ...DEFAULT_SETTINGS.safety, denyDomains: ['a.example'] } }),
      ),
    ).toBe(false)
    expect(
      screenshotAllowed('https://mail.a.example/x', s({ screenshots: { enabled: true, offSites: ['*.a.example'] } })),
    ).toBe(false)
    expect(
      screenshotAllowed('https://a.example./x', s({ screenshots: { enabled: true, offSites: ['a.example'] } })),
    ).toBe(false)
    expect(screenshotAllowed('https://a.example/x', s({ screenshots: { enabled: false, offSites: [] } }))).toBe(false)
  })
})
