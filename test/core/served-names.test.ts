// Served files judged by what the browser will save (src/core/offsite.ts gateRules, step-place.ts):
// the run's tab gate read as declarativeNetRequest reads it — header patterns with `*`, `?` (one
// character or none) and `\` escapes, case-insensitive; a rule's header conditions match when any
// does and no excluded one does; `regexFilter` as RE2 (the JavaScript engine agrees on this one).
import { describe, expect, it } from 'vitest'
import { gateRules, type GateRule } from '../../src/core/offsite'

/** declarativeNetRequest's header value pattern, as Chrome documents it. */
function globMatches(pattern: string, value: string): boolean {
  let re = ''
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]
    if (c === '\\' && i + 1 < pattern.length) re += pattern[++i].replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    else if (c === '*') re += '[\\s\\S]*'
    else if (c === '?') re += '[\\s\\S]?'
    else re += c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  }
  return new RegExp(`^${re}$`, 'i').test(value)
}

type Response = { url: string; headers: Record<string, string> }
const rules = gateRules(7, { site: 'shop.test', allowed: [], policy: { allow: [], deny: [] }, crossSite: true }, 0)

/** Whether any of the tab's rules blocks this response (a top-level load of the tab). */
function blocked(r: Response, all: GateRule[] = rules): boolean {
  return all.some(({ condition: c }) => {
    const has = (conds: { header: string; values: string[] }[] | undefined) =>
      (conds ?? []).some(
        (h) => r.headers[h.header] !== undefined && h.values.some((v) => globMatches(v, r.headers[h.header])),
      )
    if (c.responseHeaders && !has(c.responseHeaders)) return false
    if (has(c.excludedResponseHeaders)) return false
    if (c.regexFilter && !new RegExp(c.regexFilter, c.isUrlFilterCaseSensitive === false ? 'i' : '').test(r.url))
      return false
    return (
      !!(c.responseHeaders || c.regexFilter) &&
      c.resourceTypes.includes('main_frame') &&
      !c.requestDomains &&
      !c.excludedRequestDomains
    )
  })
}
const attachment = (cd: string, type = 'application/octet-stream'): Response => ({
  url: 'https://files.test/download?id=1',
  headers: { 'content-disposition': cd, 'content-type': type },
})

describe('a served program in any spelling of its name', () => {
  it.each([
    ['RFC 6266 filename*', "attachment; filename*=UTF-8''setup.exe"],
    ['RFC 6266 with a fallback document name', `attachment; filename="invoice.pdf"; filename*=UTF-8''invoice.exe`],
    ['a percent-encoded dot', "attachment; filename*=UTF-8''setup%2Eexe"],
    ['a percent-encoded dot in a plain filename', 'attachment; filename="setup%2eexe"'],
    ['percent-encoded letters', 'attachment; filename="setup.%65%78%65"'],
    ['RFC 2047 base64', 'attachment; filename="=?utf-8?B?c2V0dXAuZXhl?="'],
    ['RFC 2047 quoted-printable', 'attachment; filename="=?UTF-8?Q?setup=2Eexe?="'],
    ['a document ending after a parameter', "attachment; filename*=UTF-8''setup.exe; x=.pdf"],
    ['a .url shortcut', 'attachment; filename="bank.url"'],
    ['a .lnk shortcut', 'attachment; filename=invoice.lnk'],
    ['a .desktop launcher', 'attachment; filename="notes.desktop"'],
    ['a .scf shell command', 'attachment; filename="folder.scf"'],
    ['a .webloc link', 'attachment; filename="site.webloc"'],
  ])('blocks %s', (_, cd) => {
    expect(blocked(attachment(cd))).toBe(true)
  })

  it.each([
    ['a redirect that ends on a .exe path', 'https://cdn.test/releases/setup.exe'],
    ['…with a query string', 'https://cdn.test/releases/setup.EXE?token=abc'],
    ['…with its dot percent-encoded', 'https://cdn.test/releases/setup%2Eexe'],
    ['…an .msi', 'https://cdn.test/get/tool.msi'],
    ['…a .url shortcut', 'https://cdn.test/get/bank.url'],
  ])('blocks %s, sent as octet-stream with no name', (_, url) => {
    expect(blocked({ url, headers: { 'content-type': 'application/octet-stream' } })).toBe(true)
  })

  it.each([
    ['a plain document', 'attachment; filename="invoice.pdf"'],
    ['a UTF-8 document name', "attachment; filename*=UTF-8''%E5%8F%91%E7%A5%A8.pdf"],
    ['the usual fallback and UTF-8 pair', `attachment; filename="fapiao.pdf"; filename*=UTF-8''%E5%8F%91%E7%A5%A8.pdf`],
    ['a spreadsheet', "attachment; filename*=utf-8'en'report%202024.xlsx"],
  ])('lets %s download', (_, cd) => {
    expect(blocked(attachment(cd, 'application/pdf'))).toBe(false)
  })

  it('lets a document whose address ends in its own name download, and a page load', () => {
    expect(
      blocked({ url: 'https://cdn.test/files/report.pdf', headers: { 'content-type': 'application/octet-stream' } }),
    ).toBe(false)
    expect(blocked({ url: 'https://shop.test/setup.exe/help', headers: { 'content-type': 'text/html' } })).toBe(false)
    expect(
      blocked({ url: 'https://shop.test/download.exe', headers: { 'content-type': 'text/html; charset=utf-8' } }),
    ).toBe(false)
  })
})
