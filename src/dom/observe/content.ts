/**
 * Content sections and the four-dimension attention model: where a person's eye
 * goes first on a page, estimated from position, area, font size and the element's tag. A block
 * a person cannot see is left out: hidden by CSS, too small, clipped away by an `overflow: hidden`
 * container, or parked off the page.
 */
import { clip } from '../../core/page/text'
import { cssVisibility, geometryHidden } from './visibility'
import { contentClip, type ContentCandidate, type RawScan } from './scan'
import type { ContentSection } from '../../core/page/snapshot'

/** Weights of the four dimensions. */
export const kAttentionWeights = { position: 0.35, area: 0.25, fontSize: 0.15, semantic: 0.25 } as const
/** Sections kept after sorting by attention ("截取前 50 个"). */
export const kMaxSections = 50
/** Longest text kept per section: enough for a paragraph's gist. */
export const kSectionTextMax = 200
/**
 * Blocks scored per scan: a run of them in document order centred on the viewport. Each costs a
 * layout and a style read. Position (distance from the viewport's centre) weighs 0.35 plus the
 * first-screen bonus and falls to zero about three screens away, so the top 50 come from the
 * blocks nearest the centre: a screenful of them on a dense page, every block of a sparse one
 * (the run then spans more screens).
 */
export const kScoredBlocks = 200
/** Headings h1–h3 outside the run also scored, nearest first: a large heading placed out of order. */
export const kFarHeadings = 50
/** Bonus for being on the first screen ("首屏加分"). */
const kFirstScreenBonus = 0.2
/** Fixed score per tag ("按 HTML 标签固定分值"): headings lead, table cells trail. */
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
  for (const c of raw.content) if (c.tag === 'p') textChars += c.el.textContent?.length ?? 0
  for (const c of scoredBlocks(raw.content, raw)) {
    const text = c.el.textContent
    if (!text || text.trim().length < 2) continue
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
      kAttentionWeights.position * position +
      kAttentionWeights.area * area +
      kAttentionWeights.fontSize * font +
      kAttentionWeights.semantic * semantic
    return { m, attention }
  })
  scored.sort((a, b) => b.attention - a.attention)
  const top = raw.top
  const sections = scored.slice(0, kMaxSections).map(({ m, attention }) => ({
    tag: m.c.tag,
    text: clip(m.text, kSectionTextMax),
    attention: Math.round(attention * 1000) / 1000,
    region: m.c.region.id,
    bounds: {
      x: Math.round(m.x + top.scrollX),
      y: Math.round(m.y + top.scrollY),
      width: Math.round(m.width),
      height: Math.round(m.height),
    },
  }))
  return { sections, textChars }
}

/**
 * The blocks worth scoring (kScoredBlocks): all of them on a short page; on a long one the run
 * around the block at the viewport's centre, and the nearest headings outside it. Kept in
 * document order, so that equal scores rank as before.
 */
export function scoredBlocks(blocks: ContentCandidate[], raw: Pick<RawScan, 'viewport'>): ContentCandidate[] {
  if (blocks.length <= kScoredBlocks) return blocks
  const lo = Math.min(
    Math.max(0, firstPast(blocks, raw.viewport.height / 2) - kScoredBlocks / 2),
    blocks.length - kScoredBlocks,
  )
  const hi = lo + kScoredBlocks
  const before: ContentCandidate[] = []
  const after: ContentCandidate[] = []
  let b = lo - 1
  let a = hi
  while (before.length + after.length < kFarHeadings && (b >= 0 || a < blocks.length)) {
    if (a < blocks.length && isHeading(blocks[a++])) after.push(blocks[a - 1])
    if (b >= 0 && before.length + after.length < kFarHeadings && isHeading(blocks[b--])) before.push(blocks[b + 1])
  }
  return [...before.reverse(), ...blocks.slice(lo, hi), ...after]
}

function isHeading(c: ContentCandidate): boolean {
  return c.tag === 'h1' || c.tag === 'h2' || c.tag === 'h3'
}

/**
 * Index of the first block whose box ends below `y` (viewport coordinates), by bisection: blocks
 * in document order are laid out top to bottom in normal flow. A block without a box (hidden,
 * 0 × 0) counts as above. Without layout, 0.
 */
function firstPast(blocks: ContentCandidate[], y: number): number {
  let lo = 0
  let hi = blocks.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    const c = blocks[mid]
    if (!c.ds.layout) return 0
    if (c.ds.oy + c.el.getBoundingClientRect().bottom > y) hi = mid
    else lo = mid + 1
  }
  return Math.min(lo, blocks.length - 1)
}
