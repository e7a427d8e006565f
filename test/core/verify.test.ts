import { describe, expect, it } from 'vitest'
import { extractKeywords, missingKeywords } from '../../src/core/verify'

describe('keyword verification', () => {
  it.each([
    ['The page shows "Welcome, alice" and "Dashboard"', ['Welcome, alice', 'Dashboard']],
    ['页面显示“已发货”', ['已发货']],
    ['页面显示「订单详情」', ['订单详情']],
    ['Logged in', ['Logged in']],
  ])('extracts the quoted keywords of %j', (assertion, keywords) => {
    expect(extractKeywords(assertion)).toEqual(keywords)
  })

  it('matches regardless of case and line breaks, and lists what is missing', () => {
    expect(missingKeywords(['Welcome, Alice', 'Orders'], 'welcome,\n  alice\nRecent orders')).toEqual([])
    expect(missingKeywords(['Welcome', 'Invoices'], 'Welcome back')).toEqual(['Invoices'])
  })
})
