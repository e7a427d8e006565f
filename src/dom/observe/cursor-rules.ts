/**
 * Which elements can be `display: none` or have a `cursor` other than their parent's, read from
 * the document's own stylesheets once per scan (never cached across scans: sheets and classes
 * change without mutations the scan could see).
 *
 * `cursor` is inherited and `display` is not, so an element no rule sets either on is not
 * display:none and has its parent's cursor. The scan reads the computed style (costly per element)
 * only for elements that may differ: those matched by a selector of a rule setting `cursor`,
 * `display` or `all`, elements with an inline style, a `cursor` attribute (SVG) or `popover`, the
 * tags the UA stylesheet styles (kUaStyledTags), roots, and whole subtrees
 * of shadow hosts and custom elements (their shadow sheets, `:host` and `::slotted` rules, and
 * slotting, which changes what a light child inherits from). Anything this module can't see
 * through — an unreadable (cross-origin) sheet, nested or scoped rules, `::part`, a keyframe
 * animating `cursor`, too many rules — makes it answer `null`: read every element's style.
 */

/** More cursor rules than this and one `matches()` costs about as much as the style read. */
const kMaxCursorRules = 24

/**
 * Tags the UA stylesheet gives a cursor (Chromium: a, area → pointer; controls → default/text) or
 * may give `display: none` (closed dialogs, audio without controls, hidden inputs, ruby fallback,
 * media sources...), with the other replaced and form elements for good measure.
 */
export const kUaStyledTags = new Set([
  'a', 'area', 'button', 'input', 'label', 'select', 'textarea', 'option', 'optgroup', 'datalist', 'dialog', 'param', 'rp', 'rt', 'noembed',
  'noframes', 'track', 'source', 'audio', 'video', 'embed', 'object', 'iframe', 'frame', 'frameset', 'slot', 'details', 'summary', 'img',
  'canvas', 'svg', 'math', 'picture', 'map', 'marquee', 'keygen', 'applet', 'fieldset', 'legend', 'output', 'meter', 'progress',
])

class Unknown extends Error {}

function setsCursor(style: CSSStyleDeclaration | undefined): boolean {
  return !!style && (style.getPropertyValue('cursor') !== '' || style.getPropertyValue('display') !== '' || style.getPropertyValue('all') !== '')
}

function collect(rules: CSSRuleList, out: string[], depth: number): void {
  if (depth > 8) throw new Unknown()
  for (let i = 0; i < rules.length; i++) {
    const rule = rules[i] as CSSRule & { cssRules?: CSSRuleList; styleSheet?: CSSStyleSheet | null; selectorText?: string; style?: CSSStyleDeclaration }
    const type = rule.constructor?.name
    if (type === 'CSSStyleRule') {
      // Nested rules carry relative selectors (`&:hover`) that matches() can't take alone.
      if (rule.cssRules && rule.cssRules.length > 0) throw new Unknown()
      if (setsCursor(rule.style)) {
        const sel = rule.selectorText ?? ''
        if (!sel || /::part|:host|::slotted/i.test(sel)) throw new Unknown()
        out.push(sel)
        if (out.length > kMaxCursorRules) throw new Unknown()
      }
    } else if (type === 'CSSImportRule') {
      const sheet = rule.styleSheet
      if (!sheet) throw new Unknown()
      collect(sheet.cssRules, out, depth + 1)
    } else if (type === 'CSSMediaRule' || type === 'CSSSupportsRule' || type === 'CSSLayerBlockRule' || type === 'CSSContainerRule') {
      // Conditions are ignored: a rule that may apply is treated as applying (one more read).
      collect(rule.cssRules!, out, depth + 1)
    } else if (type === 'CSSKeyframesRule') {
      const frames = rule.cssRules!
      for (let k = 0; k < frames.length; k++) if (setsCursor((frames[k] as CSSKeyframeRule).style)) throw new Unknown()
    } else if (rule.cssRules !== undefined || type === undefined) {
      // @scope, @starting-style and any grouping rule not known here.
      throw new Unknown()
    }
    // @font-face, @page, @namespace, @layer statements, @property: no element cursor.
  }
}

/**
 * One selector list matching every element a stylesheet rule may set `cursor` on ('' when none
 * does), or null when the sheets can't be read through and every element needs its style read.
 */
export function cursorSelector(doc: Document): string | null {
  const out: string[] = []
  try {
    const sheets: CSSStyleSheet[] = [...Array.from(doc.styleSheets), ...((doc as Document & { adoptedStyleSheets?: CSSStyleSheet[] }).adoptedStyleSheets ?? [])]
    // cssRules throws on a cross-origin sheet; that is the fallback too.
    for (const sheet of sheets) collect(sheet.cssRules, out, 0)
    if (out.length === 0) return ''
    const sel = out.join(', ')
    // A selector the parser kept but matches() rejects (namespaces, vendor pseudo-classes).
    doc.documentElement?.matches(sel)
    return sel
  } catch {
    return null
  }
}
