/**
 * Debug overlay: outlines every indexed element with its id, in one absolutely positioned
 * container that carries `data-ava-ui` so the scanner and the readiness observer ignore it.
 */
import { kAvaUiAttr } from './scan'
import type { PageSnapshot } from '../../core/page/snapshot'

const kOverlayValue = 'observe-overlay'
/** Above everything a page can stack (the maximum 32-bit z-index). */
const kTopZ = '2147483647'
const kColors: Record<string, string> = {
  link: '#1a73e8',
  button: '#d93025',
  text_input: '#188038',
  password_input: '#188038',
  textarea: '#188038',
  select: '#e37400',
}

export function showOverlay(snapshot: PageSnapshot, doc: Document = document): HTMLElement {
  hideOverlay(doc)
  const host = doc.createElement('div')
  host.setAttribute(kAvaUiAttr, kOverlayValue)
  host.style.cssText = `position:absolute;left:0;top:0;width:0;height:0;pointer-events:none;z-index:${kTopZ};`
  for (const e of snapshot.elements) {
    const color = kColors[e.type] ?? '#9334e6'
    const box = doc.createElement('div')
    box.style.cssText = `position:absolute;left:${e.bounds.x}px;top:${e.bounds.y}px;width:${e.bounds.width}px;height:${e.bounds.height}px;outline:1px solid ${color};box-sizing:border-box;`
    const tag = doc.createElement('span')
    tag.textContent = e.id
    tag.style.cssText = `position:absolute;left:0;top:-14px;font:10px/14px monospace;background:${color};color:#fff;padding:0 3px;white-space:nowrap;`
    box.appendChild(tag)
    host.appendChild(box)
  }
  // Under Ava's own panel (the launcher's host, also at the top z-index): an outline over the panel
  // would make the panel refuse clicks as covered, and the person could not turn the outlines off.
  const ava = doc.querySelector(':root > [data-ava-ui=""]')
  doc.documentElement.insertBefore(host, ava)
  return host
}

export function hideOverlay(doc: Document = document): void {
  for (const el of Array.from(doc.querySelectorAll(`[${kAvaUiAttr}="${kOverlayValue}"]`))) el.remove()
}
