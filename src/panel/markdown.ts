import DOMPurify from 'dompurify'
import { marked } from 'marked'

/**
 * Markdown from the model (which may echo the page) rendered for the panel. Sanitised with
 * DOMPurify, and stricter than its defaults: no images, media or forms, because an image URL
 * chosen by a page could carry data out (prompt-injection exfiltration), and links open in a
 * new tab rather than inside the panel.
 */
const kForbidden = ['img', 'picture', 'video', 'audio', 'source', 'iframe', 'object', 'embed', 'form', 'input', 'button', 'textarea', 'select', 'style', 'svg', 'math']

DOMPurify.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName === 'A') {
    const href = node.getAttribute('href') ?? ''
    if (!/^https?:\/\//i.test(href)) node.removeAttribute('href')
    node.setAttribute('target', '_blank')
    node.setAttribute('rel', 'noopener noreferrer')
  }
})

export function renderMarkdown(text: string): string {
  const html = marked.parse(text, { async: false, gfm: true, breaks: true })
  return DOMPurify.sanitize(html, { FORBID_TAGS: kForbidden, FORBID_ATTR: ['style'] }).trim()
}
