// pdf.js without a worker of its own: an extension's service worker cannot start one, nor import a
// module at run time, so the library's worker code is bundled here and handed to it as its "fake
// worker" (pdf.js looks for `globalThis.pdfjsWorker` before it would load anything). The legacy
// build runs on the Chromium and the Node versions Ava supports. No eval (the extension's CSP
// forbids it, and a PDF's functions are then interpreted), no fonts, no remote code.
import * as pdfjsWorker from 'pdfjs-dist/legacy/build/pdf.worker.mjs'
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs'

;(globalThis as { pdfjsWorker?: unknown }).pdfjsWorker = pdfjsWorker

/** Pages read of one PDF: an invoice or a statement is a few; a book is not the model's to read whole. */
const kMaxPdfPages = 50

/** The text of a PDF, page by page (lines as pdf.js ends them); throws on bytes that are no PDF. */
export async function pdfText(bytes: Uint8Array): Promise<string> {
  const task = getDocument({
    data: bytes.slice(), // pdf.js takes the buffer over; the caller keeps its copy
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    useWorkerFetch: false,
    stopAtErrors: false,
    verbosity: 0,
  })
  const doc = await task.promise
  try {
    const pages: string[] = []
    for (let n = 1; n <= Math.min(doc.numPages, kMaxPdfPages); n++) {
      const page = await doc.getPage(n)
      const content = await page.getTextContent()
      let line = ''
      const lines: string[] = []
      for (const item of content.items) {
        if (!('str' in item)) continue
        line += item.str
        if (item.hasEOL) {
          lines.push(line)
          line = ''
        }
      }
      if (line) lines.push(line)
      pages.push(lines.join('\n'))
    }
    if (doc.numPages > kMaxPdfPages) pages.push(`(${doc.numPages - kMaxPdfPages} more pages not read)`)
    return pages.join('\n\n')
  } finally {
    await task.destroy()
  }
}
