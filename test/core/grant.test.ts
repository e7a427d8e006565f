import { describe, expect, test } from 'vitest'
import { grantCovers, grantSite, grantSites, siteOfHost } from '../../src/core/grant'

describe('grants name their sites', () => {
  test('a person writes a site as a host or an address; the grant keeps its registrable domain', () => {
    expect(grantSite('mail.example.com')).toBe('example.com')
    expect(grantSite('https://shop.example.co.uk/cart?x=1')).toBe('example.co.uk')
    expect(grantSite(' Example.COM. ')).toBe('example.com')
    expect(grantSite('alice.github.io')).toBe('alice.github.io')
    expect(grantSite('127.0.0.1')).toBe('127.0.0.1')
    expect(grantSite('localhost:8080')).toBe('localhost')
  })

  test('what names no site is refused', () => {
    for (const bad of [
      '',
      '   ',
      'file:///etc/passwd',
      'javascript:alert(1)',
      'a b',
      'https://',
      'not%20a%20site',
      'evil.com%2F',
    ])
      expect(grantSite(bad), bad).toBeNull()
  })

  test('a grant covers its sites and their subdomains, nothing else', () => {
    const sites = grantSites(['mail.example.com', 'example.com', 'localhost'])
    expect(sites).toEqual(['example.com', 'localhost'])
    expect(grantCovers(sites, 'https://accounts.example.com/login')).toBe(true)
    expect(grantCovers(sites, 'http://localhost:5173/')).toBe(true)
    expect(grantCovers(sites, 'https://example.org/')).toBe(false)
    expect(grantCovers(sites, 'https://example.com.evil.net/')).toBe(false)
    expect(grantCovers(sites, 'http://127.0.0.1:5173/')).toBe(false)
    expect(grantCovers(sites, 'about:blank')).toBe(false)
    expect(grantCovers([], 'https://example.com/')).toBe(false)
  })

  test('the host a step names, with its port, is read as its site', () => {
    expect(siteOfHost('localhost:4000')).toBe('localhost')
    expect(siteOfHost('www.bank.example.com')).toBe('example.com')
  })
})
