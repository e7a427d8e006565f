/**
 * The words an icon says: a name guessed for a control that has none, read off its icon
 * (`guessedName`), and the meaning of what it draws (an SVG path's shape, an icon font's glyph,
 * core/risk/glyphs.ts). A guess is marked as one wherever it is shown (docs/page-representation.md,
 * "Icon names").
 */
import { normalizeText } from '../../core/page/text'
import { kMeaningGlyph, readGlyphs, readShapes } from '../../core/risk/glyphs'
import { kIconMeaning, pictureAction } from '../../core/page/icon-meaning'

/** The words a drawn icon's meaning is listed by (withMeaning adds "delete" to "trash"). */
const kGlyphWords: Record<string, string> = {
  [kMeaningGlyph.destructive]: 'trash',
  [kMeaningGlyph.payment]: 'credit card',
  [kMeaningGlyph.permission]: 'unlock',
  [kMeaningGlyph.data_send]: 'send',
}

/**
 * The meaning an icon draws, read off the drawing: an inline SVG's or SVG image's path shape, an
 * icon font's glyph or an emoji in `::before` / `::after`. '' when nothing drawn is known.
 */
function drawnIconWord(parts: Element[]): string {
  for (const n of parts) {
    let drawn = ''
    if (n.localName === 'svg')
      drawn = readShapes([...n.querySelectorAll('path[d]')].slice(0, 40).map((p) => p.getAttribute('d') ?? ''))
    else if (n.localName === 'img') {
      const m = /^data:image\/svg\+xml(;[^,]*)?,(.*)$/is.exec(n.getAttribute('src') ?? '')
      if (m) {
        try {
          const src = (m[1] ?? '').includes('base64') ? atob(m[2]) : decodeURIComponent(m[2])
          drawn = readShapes([...src.slice(0, 20_000).matchAll(/\bd\s*=\s*["']([^"']+)["']/g)].map((x) => x[1]))
        } catch {
          drawn = ''
        }
      }
    } else {
      const V = n.ownerDocument.defaultView
      for (const pseudo of ['::before', '::after']) drawn ||= readGlyphs(V?.getComputedStyle(n, pseudo).content ?? '')
    }
    for (const [glyph, word] of Object.entries(kGlyphWords)) if (drawn.includes(glyph)) return word
  }
  return ''
}

/** Icon-font classes whose text is a ligature: the glyph's name (`thumb_up`), not words on screen. */
const kLigatureClass = /(?:^|\s)(?:material-icons[\w-]*|material-symbols[\w-]*|mdc-icon|google-symbols)(?:\s|$)/

/** The name of an icon drawn by a ligature (Material Icons `favorite`), spelt as words; '' if none. */
export function ligatureName(el: Element, name: string): string {
  if (!/^[a-z][a-z0-9_]*$/.test(name) || name.length > 40) return ''
  const glyph = kLigatureClass.test(el.getAttribute('class') ?? '')
    ? el
    : el.firstElementChild &&
      el.querySelector('[class*=material-icons],[class*=material-symbols],.mdc-icon,[class*=google-symbols]')
  if (!glyph || normalizeText(glyph.textContent ?? '') !== name) return ''
  return name.replace(/_/g, ' ')
}

/**
 * Class words that say nothing about what a control does: layout, state, the library's own
 * prefixes and the word "icon" itself. What is left of `fa-regular fa-heart` is "heart".
 */
const kNoiseWords = new Set([
  'icon',
  'icons',
  'ico',
  'fa',
  'fas',
  'far',
  'fab',
  'fal',
  'fad',
  'fat',
  'fass',
  'fasr',
  'solid',
  'regular',
  'light',
  'thin',
  'duotone',
  'brands',
  'sharp',
  'bi',
  'mdi',
  'ti',
  'ri',
  'ion',
  'ionicon',
  'glyphicon',
  'anticon',
  'el',
  'lucide',
  'feather',
  'octicon',
  'svg',
  'img',
  'image',
  'material',
  'symbols',
  'outlined',
  'outline',
  'filled',
  'fill',
  'line',
  'round',
  'rounded',
  'two',
  'tone',
  'sm',
  'md',
  'lg',
  'xl',
  'xs',
  'small',
  'large',
  'alt',
  'o',
  'btn',
  'button',
  'action',
  'actions',
  'item',
  'items',
  'link',
  'wrapper',
  'wrap',
  'container',
  'inner',
  'outer',
  'box',
  'control',
  'controls',
  'tool',
  'tools',
  'toolbar',
  'clickable',
  'pointer',
  'active',
  'selected',
  'hover',
  'focus',
  'disabled',
  'enabled',
  'open',
  'closed',
  'show',
  'hide',
  'hidden',
  'visible',
  'left',
  'right',
  'top',
  'bottom',
  'pull',
  'float',
  'flex',
  'inline',
  'block',
  'd',
  'p',
  'm',
  'px',
  'py',
  'mx',
  'my',
  'ml',
  'mr',
  'mt',
  'mb',
  'pl',
  'pr',
  'js',
  'ui',
  'ng',
  'v',
  'x',
  'is',
  'has',
  'text',
  'muted',
  'primary',
  'secondary',
  'default',
  'gray',
  'grey',
  'dark',
  'white',
  'black',
  'color',
  'span',
  'div',
  'col',
  'row',
  'grid',
  'cell',
  'size',
  'w',
  'h',
  'c',
  'a',
  'i',
  'b',
  'u',
  'hand',
  'cursor',
  'tweet',
  'post',
  'card',
  'feed',
  'mail',
  'list',
])

/** A class that is a generated hash (CSS modules, styled-components, emotion): no words in it. */
const kHashClass = /^(?:css|sc|jsx|emotion|svelte|_)-|^(?=[a-zA-Z0-9]*\d)(?=[a-zA-Z0-9]*[a-zA-Z])[a-zA-Z0-9]{5,}$/

/**
 * Words that name what a control does, most common first on feeds, mail and toolbars: when an
 * icon's or control's classes hold one, it is the guess (`ProfileTweet-action--favorite
 * js-toggleState` is "favorite", not "toggle state").
 */
const kActionWords = new Set([
  'reply',
  'retweet',
  'repost',
  'share',
  'like',
  'unlike',
  'heart',
  'favorite',
  'favourite',
  'star',
  'bookmark',
  'comment',
  'comments',
  'quote',
  'follow',
  'delete',
  'trash',
  'remove',
  'archive',
  'spam',
  'report',
  'flag',
  'edit',
  'pencil',
  'copy',
  'paste',
  'cut',
  'save',
  'download',
  'upload',
  'send',
  'search',
  'settings',
  'gear',
  'cog',
  'menu',
  'more',
  'ellipsis',
  'kebab',
  'close',
  'plus',
  'add',
  'minus',
  'refresh',
  'reload',
  'undo',
  'redo',
  'play',
  'pause',
  'stop',
  'mute',
  'unmute',
  'volume',
  'next',
  'prev',
  'previous',
  'back',
  'forward',
  'expand',
  'collapse',
  'print',
  'attach',
  'paperclip',
  'lock',
  'unlock',
  'pin',
  'bell',
  'notification',
  'notifications',
  'home',
  'cart',
  'filter',
  'sort',
  'info',
  'help',
  'thumbs',
  'thumb',
  'up',
  'down',
  'zoom',
  'fullscreen',
  'calendar',
  'emoji',
  'smile',
  'camera',
  'mic',
  'location',
  'envelope',
  'inbox',
  'unread',
  'check',
  'checkmark',
  'done',
  'cancel',
  'block',
  'eye',
  'sync',
  'logout',
  'login',
])

/** The words a class token says, noise left out: `icon-trash` → trash, `fa-thumbs-up` → thumbs up. */
function classWords(cls: string): string[] {
  const out: string[] = []
  for (const token of cls.split(/\s+/)) {
    if (!token || token.length > 40 || kHashClass.test(token) || /^(?:is|has)-/.test(token)) continue
    const words = token
      .replace(/([a-z])([A-Z])/g, '$1 $2')
      .toLowerCase()
      .split(/[-_\s]+/)
      .filter((w) => w && !kNoiseWords.has(w) && !/^\d+$/.test(w) && /^[a-z]/.test(w))
    if (words.length) out.push(words.join(' '))
  }
  return out
}

const kIconSelector =
  'i, svg, img, use, [class*="icon" i], [class*=fa-], [class*=bi-], [class*=mdi-], [data-icon], [title], [aria-label]'
const kMaxIconParts = 12

/**
 * What people call the action an icon stands for, where the icon's own name is a picture: a heart
 * is "like", a trash can "delete". The guess says both ("like heart"), so either word finds it.
 */
function withMeaning(guess: string): string {
  const first = guess.split(' ')[0]
  const meaning = pictureAction(first)
  return meaning && !guess.includes(meaning) ? `${meaning} ${guess}` : guess
}

/** The words of an image file name: `/img/reply-icon@2x.png` → reply. */
function fileWords(src: string): string {
  const file = src
    .replace(/[?#].*$/, '')
    .replace(/^.*\//, '')
    .replace(/@\dx/, '')
    .replace(/\.\w+$/, '')
  if (!file || /^data:/.test(src)) return ''
  return classWords(file.replace(/[.]/g, '-')).join(' ')
}

/**
 * A name for a control that has none, read off its icon (issue "pages nobody wrote"): a `title`
 * or `aria-label` inside it, an SVG's `<title>` or `<use>` target, an image's file name, a
 * `data-icon`, else the words of its icon's and its own class names. '' when nothing says anything.
 * It is a guess: callers mark it as one.
 */
export function guessedName(el: Element): string {
  const guess = iconGuess(el)
  return guess ? withMeaning(guess) : ''
}

function iconGuess(el: Element): string {
  const parts = [el, ...Array.from(el.querySelectorAll(kIconSelector)).slice(0, kMaxIconParts)]
  // What the page itself wrote for people first, then what its code names the icon.
  for (const n of parts) {
    if (n === el) continue
    const said =
      n.getAttribute('aria-label') || n.getAttribute('title') || (n.localName === 'img' ? n.getAttribute('alt') : '')
    if (said && said.trim()) return normalizeText(said)
    if (n.localName === 'svg') {
      const title = n.querySelector('title')?.textContent
      if (title && title.trim()) return normalizeText(title)
    }
  }
  // What the icon draws comes before what its code calls it: a class may say "archive" where a
  // trash can is drawn (core/risk/glyphs.ts; docs/page-representation.md, "Icon names").
  const drawn = drawnIconWord(parts)
  if (drawn) return drawn
  for (const n of parts) {
    if (n.localName === 'use') {
      const href = n.getAttribute('href') ?? n.getAttribute('xlink:href') ?? ''
      const id = href.replace(/^.*#/, '')
      const target = id ? n.ownerDocument.getElementById(id) : null
      const title = target?.querySelector('title')?.textContent
      if (title && title.trim()) return normalizeText(title)
      const words = classWords(id).join(' ')
      if (words) return words
    }
    if (n.localName === 'img') {
      const words = fileWords(n.getAttribute('src') ?? '')
      if (words) return words
    }
    const icon = n.getAttribute('data-icon')
    if (icon) {
      const words = classWords(icon).join(' ')
      if (words) return words
    }
  }
  // Class names: an icon's own first (the <i class="fa fa-heart"> inside), then the control's;
  // a word that names an action wins over the others.
  let first = ''
  for (const n of [...parts.slice(1), el]) {
    const words = classWords(n.getAttribute('class') ?? '')
    for (const w of words) {
      const parts = w.split(' ')
      const at = parts.findIndex((x) => kActionWords.has(x))
      if (at >= 0) return parts.slice(at).join(' ')
    }
    first ||= words[words.length - 1] ?? ''
  }
  return first
}

/**
 * Every word an icon says, for matching (the guess above picks one name; this keeps them all),
 * for a control that shows only an icon (a `<i class="fa fa-trash">`, a
 * `.material-icons` ligature, an SVG `<use href="#i-archive">` or `<title>`, an image's file
 * name): its class tokens without the icon set's prefix, with the words people use for the same
 * picture in English and Chinese. Read from the element and its first descendants.
 */
const kIconNoise = new Set([
  'fa',
  'fas',
  'far',
  'fab',
  'fal',
  'fad',
  'fa-solid',
  'fa-regular',
  'icon',
  'icons',
  'material',
  'material-icons',
  'material-symbols',
  'bi',
  'glyphicon',
  'mdi',
  'ti',
  'ri',
  'btn',
  'button',
  'svg',
  'sm',
  'lg',
  'xs',
  'md',
  'left',
  'right',
  'active',
])
const kIconPrefix = /^(?:fa|fas|far|bi|glyphicon|mdi|ti|ri|icon|icons|ico|btn|ql|el-icon|anticon|i|ic)[-_]/
export function iconClassWords(el: Element, deep = true): string {
  const words: string[] = []
  const add = (raw: string) => {
    for (let c of raw.toLowerCase().split(/\s+/)) {
      if (!c || kIconNoise.has(c)) continue
      c = c.replace(kIconPrefix, '').replace(/[-_]+/g, ' ').trim()
      if (c.length < 3 || /^\d|^(?:css|sc|jsx|svelte|ng|v)\b/.test(c)) continue
      words.push(c)
    }
  }
  const parts = deep ? [el, ...el.querySelectorAll(':scope > *, :scope > * > *')].slice(0, 6) : [el]
  for (const p of parts) {
    const code = iconCodeOf(p)
    add(code.classes)
    add(code.sprite)
    if (p.localName === 'title' || /material-(?:icons|symbols)/.test(code.classes))
      words.push(
        normalizeText(p.textContent ?? '')
          .replace(/_/g, ' ')
          .toLowerCase(),
      )
    add(code.file)
  }
  const syn = words.flatMap((w) => w.split(' ')).map((w) => kIconMeaning[w] ?? '')
  return [...words, ...syn].join(' ').trim()
}

/** Icon words for an element that shows no text of its own (kept with the page index's entry). */
export function bareIconWords(el: Element, text = el.textContent ?? ''): string {
  if (/^(input|select|textarea)$/.test(el.localName)) return ''
  // A plain clickable container (an e-mail row drawn as a div) says what it is by its class.
  if (el.hasAttribute('aria-label') || text.length > 40 || text.trim().length > 3)
    return /^(div|span|li|td|i)$/.test(el.localName) && !el.hasAttribute('role') && el.hasAttribute('class')
      ? iconClassWords(el, false)
      : ''
  return iconClassWords(el)
}

/** An element's class attribute as text (an SVG element's `className` is no string). */
export function classOf(el: Element): string {
  return typeof el.className === 'string' ? el.className : (el.getAttribute('class') ?? '')
}

/**
 * What a page's code names one node's icon by, as written: its classes, a sprite's id (`<use
 * href="#icon-trash">`), an image's file name, a `data-icon`. Both readers below start here: the
 * locator's words (`iconClassWords`, noise left out, meanings added) and the risk check's
 * (`iconCodeNames`, everything a page may hide meaning in).
 */
function iconCodeOf(n: Element): { classes: string; sprite: string; file: string; dataIcon: string } {
  const href = n.localName === 'use' ? (n.getAttribute('href') ?? n.getAttribute('xlink:href') ?? '') : ''
  const src = n.localName === 'img' ? (n.getAttribute('src') ?? '') : ''
  return {
    classes: classOf(n),
    sprite: href.replace(/^.*#/, ''),
    file: src.replace(/^.*\//, '').replace(/\.\w+(\?.*)?$/, ''),
    dataIcon: n.getAttribute('data-icon') ?? '',
  }
}

/** A class that names an icon: icon fonts (fa-, bi-, mdi-, …) and library icon components. */
const kIconClass =
  /^(fa[srlbd]?|fa-.+|bi-.+|mdi-.+|ti-.+|ri-.+|ion-.+|glyphicon.*|anticon.*|el-icon.*|lucide.*|material.*|icon.*|.*-icon.*|.*icon)$/i

/**
 * The names a page's code gives the icons in an element, as written (icon classes, `data-icon`,
 * sprite ids, image file names), hidden ones too and nothing left out: the risk check reads the
 * meaning a page may hide in them (dom/risk.ts). `maxNodes` bounds the descendants read.
 */
export function iconCodeNames(el: Element, maxNodes: number): string {
  const out: string[] = []
  const nodes = [el, ...[...el.querySelectorAll('i, svg, span, em, use, img, [data-icon]')].slice(0, maxNodes)]
  for (const n of nodes) {
    const code = iconCodeOf(n)
    const classes = code.classes.split(/\s+/).filter((c) => kIconClass.test(c))
    if (classes.length) out.push(classes.join(' '))
    // The element's own data-icon counts only when its classes name an icon; an icon inside always.
    if (n !== el || classes.length > 0) out.push(code.dataIcon)
    out.push(code.sprite, code.file)
  }
  return out.filter(Boolean).join(' ')
}
