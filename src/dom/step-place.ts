import type { ExecFailure, RiskCategory } from '../core/exec'
import type { SitePolicy } from '../core/offsite'
import {
  downloadRefusal,
  frameSiteRefusal,
  uploadRefusal,
  type DownloadFacts,
  type PlacedFile,
  type StepPlace,
} from '../core/step-place'
import { domActionTakesFiles } from '../core/vocabulary'

/**
 * The page's half of "where does this step act" (src/core/step-place.ts decides): the origin of
 * the element's own document — a frame of another site is judged as that site, not as the top
 * page — the run's site, and what a click on a link would download.
 */

/**
 * The run's site as this document can know it: the top page's URL the sender stamped on the
 * command (a command to a cross-origin frame goes to that frame's own content script, which cannot
 * read the top page), else this window's own when it is the top one, else the top origin from
 * `location.ancestorOrigins`. A page can blank ancestorOrigins (referrerpolicy="no-referrer"):
 * then null, and the frame counts as another site.
 */
function runSiteOf(stamped?: string): string | null {
  if (stamped) return stamped
  if (window.top === window) return location.href
  const ancestors = location.ancestorOrigins
  const top = ancestors?.length ? ancestors[ancestors.length - 1] : null
  return top && top !== 'null' ? top : null
}

/** The element's own document's origin (`about:blank` and `srcdoc` frames inherit their parent's); 'null' when opaque. */
function frameOf(el: Element): string {
  const doc = el.ownerDocument
  return doc.defaultView?.origin ?? doc.location?.origin ?? location.origin
}

export function placeOf(el: Element, runSite?: string): StepPlace {
  const win = el.ownerDocument.defaultView
  return {
    frame: frameOf(el),
    run: runSiteOf(runSite),
    ...(win && win === window.top && !runSite ? { top: true } : {}),
  }
}

/** What a click on `el` would download: the link it is in, with its `download` attribute. */
export function downloadOf(el: Element): DownloadFacts | null {
  const a = el.closest('a[href], area[href]')
  if (!a) return null
  let url: string
  try {
    url = new URL(a.getAttribute('href') ?? '', a.ownerDocument.baseURI).href
  } catch {
    return null
  }
  return { url, download: a.getAttribute('download') }
}

const kClicks = new Set(['click', 'dblclick'])

export interface PlaceGate {
  sites?: SitePolicy
  /** The risk categories still to ask about ([] once the person said yes). */
  confirm: readonly RiskCategory[]
  /** The person already said yes to this step. */
  confirmed?: boolean
  /** The run's top page, when the sender knows it (a command to a cross-origin frame). */
  runSite?: string
  /** An upload's files, each with the site it was attached on. */
  files?: readonly PlacedFile[]
}

/**
 * The checks of where a step acts, in the order a person would want them: a blocked frame is
 * refused even after a yes; a frame of another site, an attached file going elsewhere and a
 * program's download ask until the person has said yes.
 */
export function placeRefusal(el: Element, action: string, gate: PlaceGate): ExecFailure | null {
  const place = placeOf(el, gate.runSite)
  const framed = frameSiteRefusal(place, action, gate.sites ?? { allow: [], deny: [] }, gate.confirm)
  if (framed?.code === 'BLOCKED' || gate.confirmed) return framed
  // An attached file going to another site is the sharper question: it names the file as well.
  const uploading = domActionTakesFiles(action) && gate.files?.length ? uploadRefusal(gate.files, place.frame) : null
  return uploading ?? framed ?? (kClicks.has(action) ? downloadRefusal(downloadOf(el)) : null)
}
