import { zipSync, strToU8 } from 'fflate'
import { describe, expect, test } from 'vitest'
import {
  pickServed,
  readServed,
  runOfDownload,
  servedKind,
  servedReport,
  servingOrigin,
  kMaxServedTextChars,
  type ServedFile,
} from '../../../src/core/agent/served-files'
import { uploadRefusal } from '../../../src/core/step-place'

const file = (name: string, extra: Partial<ServedFile> = {}): ServedFile => ({
  name,
  size: 10,
  site: 'http://shop.test:8080',
  ...extra,
})
const u8 = (s: string) => new TextEncoder().encode(s)

describe('what a served file is', () => {
  test('by its saved name first, programs and shortcuts by the download gate’s endings', () => {
    expect(servedKind('orders.csv')).toBe('csv')
    expect(servedKind('orders.TSV')).toBe('tsv')
    expect(servedKind('invoice.pdf', 'application/octet-stream')).toBe('pdf')
    expect(servedKind('statements.zip')).toBe('zip')
    expect(servedKind('report', 'application/json; charset=utf-8')).toBe('json')
    // A name that hides its ending, or ends as a shortcut or script, is a program whatever its type.
    expect(servedKind('invoice\u202Efdp.exe', 'application/pdf')).toBe('program')
    expect(servedKind('open-me.lnk', 'text/plain')).toBe('program')
    expect(servedKind('run.ps1')).toBe('program')
    expect(servedKind('photo.heic', 'image/heic')).toBe('other')
  })
})

describe('reading one', () => {
  test('CSV and TSV as text, a UTF-8 byte order mark dropped, UTF-16 decoded', () => {
    expect(readServed(file('a.csv'), u8('\uFEFFid,total\n1,9.50\n'))).toEqual({ text: 'id,total\n1,9.50\n' })
    const le = new Uint8Array([0xff, 0xfe, ...Array.from('a\tb').flatMap((c) => [c.charCodeAt(0), 0])])
    expect(readServed(file('a.tsv'), le)).toEqual({ text: 'a\tb' })
  })

  test('JSON re-indented so one line reads as rows; what is no JSON given as it is', () => {
    expect(readServed(file('a.json'), u8('[{"id":1}]'))).toEqual({ text: '[\n {\n  "id": 1\n }\n]' })
    expect(readServed(file('a.json'), u8('{oops'))).toEqual({ text: '{oops' })
  })

  test('a ZIP is listed from its central directory, folders left out; a broken one says so', () => {
    const zip = zipSync({ 'jan.pdf': strToU8('x'.repeat(300)), 'feb/': {}, 'feb/feb.pdf': strToU8('yy') })
    expect(readServed(file('s.zip'), zip)).toEqual({
      entries: [
        { name: 'jan.pdf', size: 300 },
        { name: 'feb/feb.pdf', size: 2 },
      ],
    })
    expect(readServed(file('s.zip'), u8('not a zip'))).toEqual({ unreadable: 'broken' })
  })

  test('programs are never read; pictures and unknown kinds are said to be unread', () => {
    expect(readServed(file('setup.exe'), u8('MZ'))).toEqual({ unreadable: 'program' })
    expect(readServed(file('a.png', { mimeType: 'image/png' }), u8('png'))).toEqual({ unreadable: 'other' })
    expect(readServed(file('a.csv', { unread: 'made in the page' }), null)).toEqual({
      unreadable: 'unfetched',
      why: 'made in the page',
    })
  })

  test('a PDF is its text as pdf.js gave it; none is a scan', () => {
    expect(readServed(file('i.pdf'), u8('%PDF'), 'Total 12')).toEqual({ text: 'Total 12' })
    expect(readServed(file('i.pdf'), u8('%PDF'), '  ')).toEqual({ unreadable: 'noText' })
  })
})

describe('what the model is told', () => {
  test('secrets cut in any shape, the text bounded, the file and its site named', () => {
    const r = servedReport(file('a.csv'), { text: 'name,code\nbob,V-A-U-L-T-7Q3X\n' }, ['VAULT7Q3X'])
    expect(r.ok).toBe(true)
    expect(r.detail).toContain('File "a.csv" (csv, 10 B, served by shop.test)')
    expect(r.detail).not.toMatch(/7Q3X/)
    expect(r.detail).toContain('[redacted]')
    const long = servedReport(file('b.txt'), { text: 'x'.repeat(kMaxServedTextChars + 5) }, [])
    expect(long.detail.length).toBeLessThan(kMaxServedTextChars + 200)
    expect(long.detail).toContain(`(cut: the first ${kMaxServedTextChars} of ${kMaxServedTextChars + 5} characters)`)
  })

  test('a ZIP says its contents were not read', () => {
    const r = servedReport(file('s.zip'), { entries: [{ name: 'jan.pdf', size: 2048 }] }, [])
    expect(r.detail).toMatch(/ZIP of 1 files; their contents were not read, only listed:\n- jan\.pdf \(2\.0 KB\)/)
  })

  test('a file named by its name, a path by its last part, case folded', () => {
    const files = [file('Orders.csv'), file('invoice.pdf')]
    expect(pickServed('C:\\fakepath\\orders.csv', files)?.name).toBe('Orders.csv')
    expect(pickServed('nope.csv', files)).toBeNull()
  })
})

describe('bound to the site that served it', () => {
  test('the serving origin: the final address, or the page that made a blob or data file', () => {
    expect(servingOrigin({ url: 'http://shop.test:8080/export?x=1', finalUrl: 'http://files.shop.test/o.csv' })).toBe(
      'http://files.shop.test',
    )
    expect(servingOrigin({ url: 'blob:http://shop.test:8080/1f2e' })).toBe('http://shop.test:8080')
    expect(servingOrigin({ url: 'data:text/csv,a', referrer: 'http://shop.test:8080/orders' })).toBe(
      'http://shop.test:8080',
    )
  })

  test('a download belongs to the run whose tab is on its site, never to another', () => {
    const runs = [
      { id: 'r1', tabUrl: 'http://books.test:8080/upload' },
      { id: 'r2', tabUrl: 'http://shop.test:8080/orders' },
    ]
    expect(
      runOfDownload({ url: 'http://shop.test:8080/export.csv', referrer: 'http://shop.test:8080/orders' }, runs)?.id,
    ).toBe('r2')
    expect(runOfDownload({ url: 'http://evil.test/x.csv', referrer: 'http://evil.test/' }, runs)).toBeNull()
  })

  test('an upload of a served file to another site asks, naming the file and both sites', () => {
    const ask = uploadRefusal(
      [{ name: 'orders.csv', site: 'http://shop.test:8080', served: true }],
      'http://books.test:8080',
    )
    expect(ask?.code).toBe('NEEDS_CONFIRMATION')
    expect(ask?.ask).toEqual({
      key: 'risk.ask.uploadServed',
      params: { names: '“orders.csv”', from: 'shop.test', host: 'books.test' },
    })
    expect(
      uploadRefusal([{ name: 'orders.csv', site: 'http://shop.test:8080', served: true }], 'http://www.shop.test'),
    ).toBeNull()
  })
})

describe('the name a server gives a file', () => {
  test('filename* (RFC 8187) wins over filename, decoded; quoted names unescaped; paths dropped', async () => {
    const { dispositionName, isGeneratedName } = await import('../../../src/core/agent/served-files')
    expect(dispositionName(`attachment; filename="orders.csv"`)).toBe('orders.csv')
    expect(dispositionName(`attachment; filename="fallback.pdf"; filename*=UTF-8''%E5%8F%91%E7%A5%A8%20%232.pdf`)).toBe(
      '发票 #2.pdf',
    )
    expect(dispositionName(`attachment; filename="a \\"b\\".txt"`)).toBe('a "b".txt')
    expect(dispositionName(`attachment; filename=../../etc/report.csv`)).toBe('report.csv')
    expect(dispositionName('inline')).toBeNull()
    expect(isGeneratedName('8ca073f8-01fe-46fb-90fb-334219a051ef')).toBe(true)
    expect(isGeneratedName('orders.csv')).toBe(false)
  })
})

describe('the read_file step', () => {
  const ins = (value: string) =>
    ({ step_id: 1, action_type: 'read_file', params: { value }, description: 'read' }) as never
  const portsWith = (allowed: boolean, files: ServedFile[], bytes: Record<string, string>) =>
    ({
      files: {
        allowed: async () => allowed,
        list: async () => files,
        bytes: async (name: string) => (name in bytes ? u8(bytes[name]) : null),
        pdfText: async () => 'Total 9',
      },
    }) as never

  test('without the permission it says what Ava cannot see, in the person’s words too', async () => {
    const { readFileStep } = await import('../../../src/core/agent/files-step')
    const out = await readFileStep(portsWith(false, [file('a.csv')], { 'a.csv': 'x' }), ins('a.csv'), [])
    expect(out).toMatchObject({ ok: false, code: 'INVALID', msg: { key: 'outcome.step.downloadsOff' } })
  })

  test('with it, the named file’s text with secrets cut; an unknown name lists the files there are', async () => {
    const { readFileStep } = await import('../../../src/core/agent/files-step')
    const ports = portsWith(true, [file('a.csv')], { 'a.csv': 'id,pin\n1,SECRET123\n' })
    const out = await readFileStep(ports, ins('A.CSV'), ['SECRET123'])
    expect(out.ok && out.detail).toBe('File "a.csv" (csv, 10 B, served by shop.test) holds:\nid,pin\n1,[redacted]\n')
    const miss = await readFileStep(ports, ins('b.csv'), [])
    expect(miss).toMatchObject({ ok: false, msg: { key: 'outcome.step.noServedFile' } })
    expect(!miss.ok && miss.message).toContain('Downloaded: "a.csv"')
  })
})
