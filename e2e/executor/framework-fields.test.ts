/**
 * A step is done when the page took it (docs/executor.md, "The page took it"): text typed into a
 * field whose framework validates or rewrites it when the field is left is read back after
 * leaving it, and the field's own error message is the page's answer. Real React 18 (UMD from
 * node_modules), a Formik-style field validated on blur, and a field cleared by its script on blur.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { okOf, run, startHarness, type Harness } from './harness'

let h: Harness
beforeAll(async () => {
  h = await startHarness()
})
afterAll(() => h.close())

describe('fields the page validates when they are left', () => {
  test('an e-mail the React form rejects on blur fails with its message; a good one passes and keeps the focus', async () => {
    const page = await h.open('/framework-blur.html')
    const bad = await run(page, { action: 'fill', target: { semantic: 'Email' }, value: 'not-an-email' })
    expect(bad.ok || [bad.code, bad.reason]).toEqual(['NOT_ACTIONABLE', 'value-rejected'])
    expect(bad.ok ? '' : bad.message).toContain('Enter a valid email address')
    okOf(await run(page, { action: 'fill', target: { semantic: 'Email' }, value: 'ana@example.com' }))
    expect(await page.evaluate(() => (window as any).__state.email)).toBe('ana@example.com')
    // Focus is back in the field: a next step that presses Enter presses it there.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('email')
  })

  test('a value the field clears when left fails; one it keeps passes', async () => {
    const page = await h.open('/framework-blur.html')
    const cleared = await run(page, { action: 'fill', target: { semantic: 'Promo code' }, value: 'abc' })
    expect(cleared.ok || [cleared.code, cleared.reason]).toEqual(['NOT_ACTIONABLE', 'value-rejected'])
    expect(cleared.ok ? '' : cleared.message).toContain('cleared')
    okOf(await run(page, { action: 'fill', target: { semantic: 'Promo code' }, value: 'ABC' }))
    okOf(await run(page, { action: 'type', target: { semantic: 'City' }, value: 'Lyon' }))
    expect(await page.evaluate(() => (document.getElementById('code') as HTMLInputElement).value)).toBe('ABC')
  })

  test('a submit after the page reset a field a step filled is refused and names the field; after filling again it is sent', async () => {
    const page = await h.open('/framework-blur.html')
    okOf(await run(page, { action: 'fill', target: { semantic: 'City' }, value: 'Lyon' }))
    okOf(await run(page, { action: 'fill', target: { semantic: 'Promo code' }, value: 'ABC' }))
    // A re-render that resets the form between the steps (a framework remounting it).
    await page.evaluate(() => (document.getElementById('plain') as HTMLFormElement).reset())
    const refused = await run(page, { action: 'click', target: { semantic: 'Send' } })
    expect(refused.ok || [refused.code, refused.reason]).toEqual(['NOT_ACTIONABLE', 'value-rejected'])
    expect(refused.ok ? '' : refused.message).toMatch(/City.*now empty/)
    expect(await page.evaluate(() => (window as any).__state.sent)).toBeUndefined()
    okOf(await run(page, { action: 'fill', target: { semantic: 'City' }, value: 'Lyon' }))
    okOf(await run(page, { action: 'fill', target: { semantic: 'Promo code' }, value: 'ABC' }))
    okOf(await run(page, { action: 'click', target: { semantic: 'Send' } }))
    expect(await page.evaluate(() => (window as any).__state.sent)).toBe(1)
  })
})
