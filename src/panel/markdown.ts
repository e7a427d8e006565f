import DOMPurify, { type Config } from 'dompurify'
import { Marked, type Token } from 'marked'

/**
 * Markdown from the model (which may echo the page) rendered for the panel ("the
 * answer renders with no network access until the person clicks"). An image URL chosen by a page
 * could carry data out (prompt-injection exfiltration), so nothing in an answer may load anything
 * by itself: DOMPurify keeps only the tags and attributes below, none of which fetch; a markdown
 * image becomes a link the person may click; and the panel page's CSP (manifest.config.ts) refuses
 * remote images, media, fonts and styles should anything slip through. Links open in a new tab.
 */
const kTags = [
  'a',
  'p',
  'br',
  'hr',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'strong',
  'b',
  'em',
  'i',
  'del',
  's',
  'code',
  'pre',
  'blockquote',
  'ul',
  'ol',
  'li',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
  'sup',
  'sub',
  'kbd',
  'span',
  'input',
]
/** No src, srcset, background, poster, style, data, action, formaction, ping, xlink:href: nothing that loads. */
const kAttrs = ['href', 'title', 'align', 'start', 'class', 'type', 'checked', 'disabled']
const kSanitize: Config = { ALLOWED_TAGS: kTags, ALLOWED_ATTR: kAttrs, ALLOW_DATA_ATTR: false, ALLOW_ARIA_ATTR: false }

DOMPurify.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName === 'A') {
    const href = node.getAttribute('href') ?? ''
    if (!/^https?:\/\//i.test(href)) node.removeAttribute('href')
    node.setAttribute('target', '_blank')
    node.setAttribute('rel', 'noopener noreferrer')
  } else if (node.tagName === 'INPUT') {
    // GFM task-list boxes only: an `<input type=image>` would load its src.
    if (node.getAttribute('type') !== 'checkbox') node.remove()
    else node.setAttribute('disabled', '')
  }
})

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

const md = new Marked({
  gfm: true,
  breaks: true,
  renderer: {
    // A picture the person may open, not one the panel loads.
    image({ href, title, text }) {
      const label = escapeHtml(text || href)
      return `<a href="${escapeHtml(href)}"${title ? ` title="${escapeHtml(title)}"` : ''}>🖼 ${label}</a>`
    },
  },
})

export function renderMarkdown(text: string): string {
  return DOMPurify.sanitize(md.parse(text, { async: false }), kSanitize).trim()
}

/** `first` and `last`: the text's ends are trimmed, as `renderMarkdown` trims the whole. */
function renderTokens(tokens: Token[], ends: { first: boolean; last: boolean }): DocumentFragment {
  const f = DOMPurify.sanitize(md.parser(tokens), { ...kSanitize, RETURN_DOM_FRAGMENT: true })
  // Trimmed after sanitising, as the whole is: what the sanitiser drops may leave blank text behind.
  while (ends.first && f.firstChild instanceof Text && !(f.firstChild.data = f.firstChild.data.trimStart()))
    f.firstChild.remove()
  while (ends.last && f.lastChild instanceof Text && !(f.lastChild.data = f.lastChild.data.trimEnd()))
    f.lastChild.remove()
  return f
}

/**
 * The finished blocks of a lexed text: those before the last blank line that
 * has a block after it. A block may go on while only blank lines follow it (a loose list, an
 * indented code block) or while its last line is still arriving (a paragraph turning into a
 * setext heading), so nothing after the last blank line with text after it counts as finished.
 * Returns how many of `tokens` are finished; block raws concatenate to the lexed text, so their
 * lengths locate the boundary.
 */
export function finishedCount(tokens: Token[]): number {
  let last = tokens.length - 1
  while (last >= 0 && tokens[last].type === 'space') last--
  let blank = last - 1
  while (blank >= 0 && tokens[blank].type !== 'space') blank--
  return blank + 1
}

const rawLength = (tokens: Token[]) => tokens.reduce((n, t) => n + t.raw.length, 0)

/** Carriage returns as the lexer sees them, so block lengths count the same characters. */
const normalise = (text: string) => text.replace(/\r\n?/g, '\n')

/**
 * At most this much unrendered text is lexed in one step, so a step stays short however much text
 * arrived at once (a worker that sends a whole answer in one event, a long chat loading).
 */
const kSliceChars = 4_096
/** Enough of the text to tell another message's text from a continuation of this one. */
const kFingerprintChars = 64

export interface MarkdownView {
  /** Takes the newest text; `step()` then draws it. */
  set(text: string): void
  /** Renders the next finished blocks and redraws the unfinished rest; true while text is left for another step. */
  step(): boolean
  /** `set`, then every step. */
  update(text: string): void
}

/**
 * Renders a streamed answer into `root` in time linear in its length: finished
 * blocks are rendered once and kept; only the unfinished last block is rendered again as text
 * arrives. A text that is not a continuation of the last one (another message) starts over.
 * Unlike a whole-text render, a reference link (`[x][1]`) finds only definitions in its own block.
 */
export function createMarkdownView(root: HTMLElement): MarkdownView {
  let text = ''
  let done = 0 // characters of `text` rendered for good, as finished blocks
  let head = ''
  let edge = ''
  let tail: Node[] = []

  const continues = (t: string) => t.length >= done && t.startsWith(head) && t.slice(done - edge.length, done) === edge

  const view: MarkdownView = {
    set(raw) {
      text = normalise(raw)
      if (continues(text)) return
      root.replaceChildren()
      done = 0
      head = edge = ''
      tail = []
    },
    step() {
      const rest = text.slice(done)
      const end = rest.length > kSliceChars ? rest.indexOf('\n', kSliceChars) + 1 || rest.length : rest.length
      // Only whole lines can finish a block: a line still arriving may turn out to continue the
      // block before it ("1" becoming "1. first", an item of the list above).
      let tokens = md.lexer(rest.slice(0, rest.lastIndexOf('\n', end - 1) + 1))
      let finished = finishedCount(tokens)
      // Nothing finished inside the slice (one long block): all the whole lines, lexed at once.
      if (end < rest.length && finished === 0) {
        tokens = md.lexer(rest.slice(0, rest.lastIndexOf('\n') + 1))
        finished = finishedCount(tokens)
      }
      for (const node of tail) node.parentNode?.removeChild(node)
      tail = []
      if (finished > 0) {
        root.append(renderTokens(tokens.slice(0, finished), { first: done === 0, last: false }))
        done += rawLength(tokens.slice(0, finished))
        head = text.slice(0, kFingerprintChars)
        edge = text.slice(Math.max(0, done - kFingerprintChars), done)
      }
      // A slice's last block may go on past it: the next step lexes it again with what follows.
      if (finished > 0 && end < rest.length) return true
      const last = renderTokens(md.lexer(text.slice(done)), { first: done === 0, last: true })
      tail = [...last.childNodes]
      root.append(last)
      return false
    },
    update(raw) {
      view.set(raw)
      while (view.step());
    },
  }
  return view
}
