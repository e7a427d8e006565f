/**
 * The data the Observe engine hands out. Everything here is plain, JSON-safe data: a snapshot
 * crosses from the page to the background and into an LLM prompt, so it never holds a DOM node.
 * The live nodes stay in the page, reachable through `resolveHandle(id)` (dom/observe/ids.ts).
 * It lives in core so that every context (the service worker merging frames, Node tests) can
 * name it without importing page code.
 */

/** Element types of the semantic engine. */
export const ElementType = {
  BUTTON: 'button',
  LINK: 'link',
  TEXT_INPUT: 'text_input',
  PASSWORD_INPUT: 'password_input',
  TEXTAREA: 'textarea',
  CHECKBOX: 'checkbox',
  RADIO: 'radio',
  SELECT: 'select',
  FILE_INPUT: 'file_input',
  IMAGE: 'image',
  VIDEO: 'video',
  TAB: 'tab',
  MENU_ITEM: 'menu_item',
  LIST_ITEM: 'list_item',
} as const
export type ElementType = (typeof ElementType)[keyof typeof ElementType]

/** Id prefix per type (`btn_登录`, `input_搜索`, `link_了解更多`); each is one token. */
export const kIdPrefix: Record<ElementType, string> = {
  button: 'btn',
  link: 'link',
  text_input: 'input',
  password_input: 'password',
  textarea: 'textarea',
  checkbox: 'checkbox',
  radio: 'radio',
  select: 'select',
  file_input: 'file',
  image: 'img',
  video: 'video',
  tab: 'tab',
  menu_item: 'menu',
  list_item: 'item',
}

/** The role a type implies; the listing names the role only when it differs. */
export const kDefaultRole: Record<ElementType, string> = {
  button: 'button',
  link: 'link',
  text_input: 'textbox',
  password_input: 'textbox',
  textarea: 'textbox',
  checkbox: 'checkbox',
  radio: 'radio',
  select: 'combobox',
  file_input: 'button',
  image: 'img',
  video: '',
  tab: 'tab',
  menu_item: 'menuitem',
  list_item: 'option',
}

/** Actions per type. */
export const kActions: Record<ElementType, ElementAction[]> = {
  button: ['click', 'hover', 'focus'],
  link: ['click', 'hover', 'focus'],
  text_input: ['type', 'focus', 'submit'],
  password_input: ['type', 'focus', 'submit'],
  textarea: ['type', 'focus'],
  checkbox: ['check', 'click', 'focus'],
  radio: ['check', 'click', 'focus'],
  select: ['select', 'click', 'focus'],
  file_input: ['upload', 'click'],
  image: ['click', 'hover'],
  video: ['click', 'scroll'],
  tab: ['click', 'focus'],
  menu_item: ['click', 'hover'],
  list_item: ['click', 'hover'],
}

/** Page types. */
export const PageType = {
  SEARCH_ENGINE: 'search_engine',
  SEARCH_RESULTS: 'search_results',
  LOGIN: 'login',
  REGISTER: 'register',
  FORM: 'form',
  ARTICLE: 'article',
  LIST: 'list',
  EMAIL_COMPOSE: 'email_compose',
  EMAIL_INBOX: 'email_inbox',
  DASHBOARD: 'dashboard',
  SETTINGS: 'settings',
  CHECKOUT: 'checkout',
  UNKNOWN: 'unknown',
} as const
export type PageType = (typeof PageType)[keyof typeof PageType]

/** What can be done to an element (ActionType). */
export type ElementAction = 'click' | 'type' | 'select' | 'check' | 'scroll' | 'hover' | 'focus' | 'submit' | 'upload'

/** A box in document coordinates (CSS pixels from the top-left of the top document). */
export interface Rect {
  x: number
  y: number
  width: number
  height: number
}

/** Current state of an element. Absent keys mean "does not apply". */
export interface ElementState {
  disabled: boolean
  checked?: boolean | 'mixed'
  selected?: boolean
  expanded?: boolean
  readonly?: boolean
  required?: boolean
  invalid?: boolean
  focused?: boolean
  /** Current value, at most 50 characters; never the value of a password field. */
  value?: string
}

export type RelationKind = 'label-for' | 'controls' | 'described-by'

/** A link from an element to another one or to a piece of text (relations). */
export interface ElementRelation {
  kind: RelationKind
  /** The agent id of the related element when it is indexed. */
  targetId?: string
  /** The related text (a label's or a description's), at most 50 characters. */
  text?: string
}

/** One indexed, interactable element. */
export interface ElementRecord {
  /** Readable, stable semantic id (kept by the content script, never written into the page). */
  id: string
  type: ElementType
  /** Computed ARIA role (explicit or implicit per HTML-AAM); '' for generic clickables. */
  role: string
  tagName: string
  className: string
  /** Visible text, whitespace collapsed, exactly 50 characters at most. */
  text: string
  /** Accessible name, 50 characters at most. */
  label: string
  actions: ElementAction[]
  state: ElementState
  /** Id of the region the element is in (`main`, `nav`, `form_login`, `page`, ...). */
  region: string
  bounds: Rect
  inViewport: boolean
  relations: ElementRelation[]
  /** Key attributes worth telling the model: input type, placeholder, href, name. */
  attrs: ElementAttrs
  /** Text of the row or list item the element sits in, 50 characters at most. */
  context?: string
  /** Id of the repeated group (table body, list) whose item holds the element. */
  group?: string
  /** Index of that item inside the group, from 0. */
  item?: number
  /** Frame prefix id when the element lives in an iframe (`frame_<id>`). */
  frame?: string
  /**
   * The label was guessed from the control's icon (a class such as `fa-heart`, an SVG symbol's
   * id, an image's file name): the page gave it no name (src/dom/words/icons.ts, guessedName).
   */
  guessed?: boolean
}

export interface ElementAttrs {
  inputType?: string
  placeholder?: string
  href?: string
  name?: string
}

export type RegionKind = 'header' | 'nav' | 'main' | 'aside' | 'footer' | 'dialog' | 'form' | 'page'

/** A landmark region of the page (regions). */
export interface Region {
  id: string
  kind: RegionKind
  label: string
  bounds: Rect
  /** Id of the enclosing region, if any. */
  parent?: string
  /** Number of indexed elements directly in this region. */
  elements: number
}

/** A repeated run of rows or list items, used to summarise ("+812 more rows like this"). */
export interface ItemGroup {
  id: string
  kind: 'table' | 'list'
  region: string
  items: number
  label: string
}

/** A block of readable content scored by the attention model. */
export interface ContentSection {
  tag: string
  text: string
  attention: number
  region: string
  bounds: Rect
}

export type FrameStatus = 'merged' | 'cross_origin_restricted' | 'hidden'

/** An iframe of the page. */
export interface FrameInfo {
  /** `frame_<id>`: the prefix its elements carry. */
  id: string
  url: string
  bounds: Rect
  isVisible: boolean
  status: FrameStatus
}

export interface LazyRegion {
  kind: 'lazy-image' | 'lazy-frame' | 'busy' | 'placeholder' | 'content-visibility' | 'sentinel'
  bounds: Rect
  region: string
}

export interface Intent {
  /** What the page lets a person do: `login`, `search`, `fill_form`, `open_item`, ... */
  name: string
  /** Agent ids of the elements that carry it out. */
  targets: string[]
}

export interface ScanStats {
  /** Elements visited (documents, open shadow roots and same-origin frames). */
  elements: number
  /** Elements indexed as interactable. */
  interactive: number
  scanMs: number
}

export interface PageSnapshot {
  url: string
  title: string
  /** Increases with every scan in this page; handles from older revisions may be stale. */
  revision: number
  viewport: { width: number; height: number; scrollX: number; scrollY: number }
  pageType: PageType
  intents: Intent[]
  regions: Region[]
  summary: string
  elements: ElementRecord[]
  content: ContentSection[]
  groups: ItemGroup[]
  frames: FrameInfo[]
  lazyRegions: LazyRegion[]
  stats: ScanStats
}
