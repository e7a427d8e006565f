/**
 * Content sections and the four-dimension attention model (seed 002 §3.5): where a person's eye
 * goes first on a page, estimated from position, area, font size and the element's tag. A block
 * a person cannot see is left out: hidden by CSS, too small, clipped away by an `overflow: hidden`
 * container, or parked off the page.
 */
import { clip } from './text'
import { cssVisibility, geometryHidden } from './visibility'
import { contentClip, type ContentCandidate, type RawScan } from './scan'
import type { ContentSection } from './types'

/** Weights of the four dimensions (seed 002 §3.5). */
export const kAttentionWeights = { position: 0.35, area: 0.25, fontSize: 0.15, semantic: 0.25 } as const
/** Sections kept after sorting by attention (seed 002 §3.5, "截取前 50 个"). */
export const kMaxSections = 50
/** Longest text kept per section: enough for a paragraph's gist. */
export const kSectionTextMax = 200
/** Bonus for being on the first screen (seed 002 §3.5, "首屏加分"). */
const kFirstScreenBonus = 0.2
/** Fixed score per tag (§3.5 "按 HTML 标签固定分值"): headings lead, table cells trail. */
export const kTagScore: Record<string, number> = {
  h1: 1,
  h2: 0.9,
  h3: 0.8,
  h4: 0.7,
  h5: 0.65,
  h6: 0.6,
  p: 0.6,
  blockquote: 0.55,
  pre: 0.5,
  li: 0.45,
  figcaption: 0.45,
  caption: 0.5,
  dt: 0.45,
  dd: 0.4,
  th: 0.45,
  td: 0.35,
}

interface Measured {
  c: ContentCandidate
  text: string
  fontSize: number
  x: number
  y: number
  width: number
  height: number
}

/** Top sections by attention, and the total characters of paragraph text (an article signal). */
export function extractContent(raw: RawScan): { sections: ContentSection[]; textChars: number } {
  const { width: vw, height: vh } = raw.viewport
  const measured: Measured[] = []
  let maxFont = 0
  let textChars = 0
  for (const c of raw.content) {
    const text = c.el.textContent
    if (!text || text.trim().length < 2) continue
    if (c.tag === 'p') textChars += text.length
    if (!c.surelyVisible && cssVisibility(c.el, null) !== 'visible') continue
    let x = 0
    let y = 0
    let width = 0
    let height = 0
    if (c.ds.layout) {
      const r = c.el.getBoundingClientRect()
      if (geometryHidden(r, contentClip(c), c.ds.scrollX, c.ds.scrollY)) continue
      x = c.ds.ox + r.left
      y = c.ds.oy + r.top
      width = r.width
      height = r.height
    }
    const fontSize = parseFloat((c.style ?? c.ds.view.getComputedStyle(c.el)).fontSize) || 16
    if (fontSize > maxFont) maxFont = fontSize
    measured.push({ c, text, fontSize, x, y, width, height })
  }
  const vpArea = Math.max(1, vw * vh)
  const diag = Math.max(1, Math.hypot(vw, vh))
  const scored = measured.map((m) => {
    const cx = m.x + m.width / 2
    const cy = m.y + m.height / 2
    const distance = Math.hypot(cx - vw / 2, cy - vh / 2)
    const firstScreen = m.y < vh && m.y + m.height > 0 ? kFirstScreenBonus : 0
    const position = Math.min(1, Math.max(0, 1 - distance / (2 * diag)) + firstScreen)
    // Square root so that a paragraph a tenth of the screen is not a hundredth of a hero image.
    const area = Math.sqrt(Math.min(1, (m.width * m.height) / vpArea))
    const font = maxFont > 0 ? m.fontSize / maxFont : 0
    const semantic = kTagScore[m.c.tag] ?? 0.3
    const attention =
      kAttentionWeights.position * position + kAttentionWeights.area * area + kAttentionWeights.fontSize * font + kAttentionWeights.semantic * semantic
    return { m, attention }
  })
  scored.sort((a, b) => b.attention - a.attention)
  const top = raw.top
  const sections = scored.slice(0, kMaxSections).map(({ m, attention }) => ({
    tag: m.c.tag,
    text: clip(m.text, kSectionTextMax),
    attention: Math.round(attention * 1000) / 1000,
    region: m.c.region.id,
    bounds: { x: Math.round(m.x + top.scrollX), y: Math.round(m.y + top.scrollY), width: Math.round(m.width), height: Math.round(m.height) },
  }))
  return { sections, textChars }
}
