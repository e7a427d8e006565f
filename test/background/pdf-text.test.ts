import { describe, expect, test } from 'vitest'
import { pdfText } from '../../src/background/pdf-text'
import { tinyPdf } from '../../e2e/support/tiny-pdf'

describe('a PDF’s text through pdf.js (the fake worker the service worker uses)', () => {
  test('an invoice’s lines come back as lines', async () => {
    const text = await pdfText(new Uint8Array(tinyPdf(['Invoice INV-2041', 'Total due: EUR 1,234.50 (paid)'])))
    expect(text).toBe('Invoice INV-2041\nTotal due: EUR 1,234.50 (paid)')
  })

  test('bytes that are no PDF are refused, not read as empty', async () => {
    await expect(pdfText(new TextEncoder().encode('id,total\n1,2\n'))).rejects.toThrow()
  })
})
