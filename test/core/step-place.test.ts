import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import {
  executableDownload,
  fileExtension,
  frameSiteRefusal,
  programResponseHeaders,
  uploadRefusal,
} from '../../src/core/step-place'

const none = { allow: [], deny: [] }
const all = ['cross_site', 'destructive', 'credentials', 'payment', 'high_risk_action'] as const

describe('executableDownload', () => {
  it('names programs however they are dressed', () => {
    for (const [url, download, file] of [
      ['https://shop.test/x', 'invoice.pdf.exe', 'invoice.pdf.exe'],
      ['https://shop.test/x', 'INVOICE.PDF.SCR', 'INVOICE.PDF.SCR'],
      ['https://shop.test/x', 'invoice.exe. ', 'invoice.exe.'],
      ['https://shop.test/x', 'invoice\u202efdp.exe', 'invoice\u202efdp.exe'],
      ['https://shop.test/setup.msi', null, 'setup.msi'],
      ['https://shop.test/get/app.apk?v=2', null, 'app.apk'],
      ['https://shop.test/x', 'run.ps1', 'run.ps1'],
      ['https://shop.test/x', 'page.html', 'page.html'],
      // An empty download attribute saves the page to disk, where its script runs when opened.
      ['https://shop.test/pages/index.html', '', 'index.html'],
      ['blob:https://shop.test/1234', null, 'blob: (type unknown)'],
      ['blob:https://shop.test/1234', 'tool.bat', 'tool.bat'],
      ['data:application/x-msdownload;base64,TVqQ', '', 'data: (application/x-msdownload)'],
      ['data:;base64,TVqQ', 'thing.cmd', 'thing.cmd'],
      ['data:application/octet-stream;base64,TVqQ', null, 'data: (application/octet-stream)'],
    ] as const) {
      expect(executableDownload({ url, download }), `${url} ${download}`).toEqual({ file })
    }
  })

  it('lets documents and plain page links through', () => {
    for (const [url, download] of [
      ['https://shop.test/x', 'invoice.pdf'],
      ['https://shop.test/index.html', null],
      ['https://shop.test/search.php?q=1', null],
      ['https://shop.test/files/report.csv', null],
      ['blob:https://shop.test/1234', 'report.pdf'],
      ['data:text/csv,a,b', 'rows.csv'],
      ['data:image/png;base64,iVBOR', null],
      ['mailto:a@b.test', null],
    ] as const) {
      expect(executableDownload({ url, download }), `${url} ${download}`).toBeNull()
    }
  })

  it('reads the ending the operating system would: hidden characters and trailing dots never hide .exe', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[a-z0-9 _-]{1,12}$/),
        fc.constantFrom('exe', 'scr', 'bat', 'js', 'dmg', 'apk', 'vbs', 'msi'),
        fc.constantFrom('', '.', '..', ' ', '\u200b', '\u202e'),
        (base, ext, tail) => {
          expect(fileExtension(`${base}.pdf.${ext}${tail}`)).toBe(ext)
          expect(executableDownload({ url: 'https://a.test/x', download: `${base}.pdf.${ext}${tail}` })).not.toBeNull()
        },
      ),
      { numRuns: 200, interruptAfterTimeLimit: 10_000 },
    )
  })
})

describe('frameSiteRefusal', () => {
  it('refuses any step in a denied site’s frame, yes or no', () => {
    const out = frameSiteRefusal(
      { frame: 'http://[::ffff:7f00:1]:8080', run: 'https://bank.test/' },
      'type',
      { allow: [], deny: ['127.0.0.1'] },
      [],
    )
    expect(out?.code).toBe('BLOCKED')
    expect(out?.msg).toEqual({ key: 'outcome.step.frameBlocked', params: { host: '127.0.0.1' } })
  })

  it('asks before a changing step in another site’s frame, naming it; reads and the run’s own site pass', () => {
    expect(
      frameSiteRefusal({ frame: 'https://pay.evil.test', run: 'https://bank.test/a' }, 'click', none, [...all])?.ask,
    ).toEqual({ key: 'risk.ask.frameSite', params: { host: 'pay.evil.test' } })
    expect(
      frameSiteRefusal({ frame: 'https://pay.evil.test', run: 'https://bank.test/a' }, 'getText', none, [...all]),
    ).toBeNull()
    expect(
      frameSiteRefusal({ frame: 'https://bank.test', run: 'https://www.bank.test/a' }, 'type', none, [...all]),
    ).toBeNull()
    // A subdomain of the run's registrable domain is the same site; a sibling under a private suffix is not.
    expect(
      frameSiteRefusal({ frame: 'https://accounts.example.com', run: 'https://mail.example.com/' }, 'type', none, [
        ...all,
      ]),
    ).toBeNull()
    expect(
      frameSiteRefusal({ frame: 'https://bob.github.io', run: 'https://alice.github.io/' }, 'type', none, [...all])
        ?.ask,
    ).toEqual({ key: 'risk.ask.frameSite', params: { host: 'bob.github.io' } })
    expect(frameSiteRefusal({ frame: 'null', run: 'https://bank.test/' }, 'type', none, [...all])?.code).toBe(
      'NEEDS_CONFIRMATION',
    )
    expect(frameSiteRefusal({ frame: 'https://pay.evil.test', run: null }, 'press', none, [...all])?.code).toBe(
      'NEEDS_CONFIRMATION',
    )
    expect(frameSiteRefusal({ frame: 'https://pay.evil.test', run: 'https://bank.test/' }, 'type', none, [])).toBeNull()
  })
})

describe('uploadRefusal', () => {
  it('asks when a file attached on one site goes to another, naming both', () => {
    const out = uploadRefusal([{ name: 'passport.pdf', site: 'https://bank.test' }], 'https://evil.test')
    expect(out?.ask).toEqual({
      key: 'risk.ask.uploadSite',
      params: { names: '“passport.pdf”', host: 'evil.test', from: 'bank.test' },
    })
    expect(uploadRefusal([{ name: 'passport.pdf', site: 'https://bank.test' }], 'https://www.bank.test')).toBeNull()
    expect(uploadRefusal([{ name: 'fixture.txt' }], 'https://evil.test')).toBeNull()
    expect(
      uploadRefusal([{ name: 'a.pdf', site: 'https://mail.example.com' }], 'https://upload.example.com'),
    ).toBeNull()
    expect(
      uploadRefusal([{ name: 'a.pdf', site: 'https://alice.github.io' }], 'https://bob.github.io')?.ask?.params,
    ).toMatchObject({ host: 'bob.github.io', from: 'alice.github.io' })
  })
})

describe('programResponseHeaders: a program a server sends, as the run’s gate matches it', () => {
  // declarativeNetRequest's header value patterns: case-insensitive, `*` any run, `?` zero or one character.
  const matches = (pattern: string, value: string) =>
    new RegExp(
      `^${pattern
        .replace(/[.+^${}()|[\]\\]/g, '\\$&')
        .replace(/\*/g, '.*')
        .replace(/\?/g, '.?')}$`,
      'i',
    ).test(value)
  const blocked = (headers: Record<string, string>) =>
    programResponseHeaders().some(
      (h) => headers[h.header] !== undefined && h.values.some((v) => matches(v, headers[h.header])),
    )

  it('blocks a program named by Content-Disposition in any spelling, or sent as a program’s type', () => {
    for (const cd of [
      'attachment; filename="setup.exe"',
      'attachment; filename=Setup.EXE',
      "attachment; filename*=UTF-8''Invoice.PDF.EXE",
      'attachment; filename="a.msi"; size=3',
      'attachment; filename=tool.apk',
      'inline; filename="run.ps1"',
      'attachment; filename="x.dmg" ; creation-date=x',
    ])
      expect(blocked({ 'content-disposition': cd }), cd).toBe(true)
    for (const ct of [
      'application/x-msdownload',
      'application/vnd.microsoft.portable-executable',
      'application/java-archive; charset=binary',
      'application/x-apple-diskimage',
      'application/vnd.android.package-archive',
    ])
      expect(blocked({ 'content-type': ct }), ct).toBe(true)
  })

  it('lets documents, pages, exports and data through', () => {
    for (const cd of [
      'attachment; filename="invoice.pdf"',
      'attachment; filename=report.xlsx',
      'attachment; filename="receipt.html"',
      'attachment; filename="firmware.bin"',
      'attachment; filename="mail.example.com.pdf"',
      'attachment; filename="notes.txt"',
      'attachment; filename="photo.jpg"',
    ])
      expect(blocked({ 'content-disposition': cd }), cd).toBe(false)
    for (const ct of [
      'application/pdf',
      'text/html; charset=utf-8',
      'application/octet-stream',
      'application/json',
      'text/plain',
    ])
      expect(blocked({ 'content-type': ct }), ct).toBe(false)
  })
})
