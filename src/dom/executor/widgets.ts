/**
 * Choosing values in custom widgets the way a person does: open the dropdown, find the
 * option by its text in the popper the library attached elsewhere in the document (Element Plus
 * and Ant Design teleport it to <body>), click it, and check the widget now displays the value.
 * One descriptor per widget kind, tried in order (STYLE.md: descriptors in one registry).
 */
import { stepResult, type Candidate, type ExecFailure, type ExecSuccess } from '../../core/exec'
import { sleep } from '../../core/sleep'
import { normalize, searchRoots } from '../locators'
import { ensureActionable } from './actionability'
import { displayedValue, isVisible, labelOf, quoteLabel, quoteTexts, viewOf, visibleTextOf } from './dom'
import { dispatchKey, keyInfo, pressKey } from './events'
import { fail } from '../../core/exec'
import { clickOp, enterTextOp, hoverOp, type OpContext } from './ops'
import { waitFor } from './wait'

/** Popups animate in (Element Plus 200 ms, Ant Design 200–300 ms) and may load options lazily. */
const kPopupWaitMs = 3_000
/** How long the widget gets to show the chosen value after the click. */
const kDisplayWaitMs = 1_500

export interface SelectRequest {
  values: string[]
  ctx: OpContext
}

export interface WidgetDescriptor {
  name: string
  /** The widget root for an element inside it, or null when this widget does not apply. */
  root(el: Element): Element | null
  choose(root: Element, req: SelectRequest): Promise<ExecSuccess | ExecFailure>
}

/** Option text as a person reads it: Ant Design's "提 交" is "提交". */
export function readText(el: Element): string {
  return normalize((el as HTMLElement).innerText ?? el.textContent).replace(
    /(\p{Script=Han})\s+(?=\p{Script=Han})/gu,
    '$1',
  )
}

const kOptionSelector =
  '[role=option],.el-select-dropdown__item,.ant-select-item-option,.el-autocomplete-suggestion li,[role=menuitem],.el-dropdown-menu__item,.ant-dropdown-menu-item'
const kPopupSelector =
  '.el-popper,.ant-select-dropdown,.ant-dropdown,.ant-cascader-dropdown,.ant-picker-dropdown,[role=listbox],[role=menu]'

function visibleIn(root: Element | Document, css: string): Element[] {
  const out: Element[] = []
  const roots = root.nodeType === 9 ? searchRoots(root as Document) : [root]
  for (const r of roots)
    for (const el of (r as ParentNode).querySelectorAll(css))
      if (isVisible(el) && !el.closest('[aria-disabled=true],.is-disabled')) out.push(el)
  return out
}

/** The popup a combobox controls (aria-controls / aria-owns), widened to its popper element. */
function controlledPopup(combo: Element | null): Element | null {
  const id = combo?.getAttribute('aria-controls') || combo?.getAttribute('aria-owns')
  if (!id) return null
  const list = combo!.ownerDocument.getElementById(id.split(/\s+/)[0])
  return list ? (list.closest(kPopupSelector.replace(',[role=listbox],[role=menu]', '')) ?? list) : null
}

/**
 * Visible options: only in the popup the combobox controls when it names one (another select's
 * popup may still be fading out), else in any visible popup.
 */
function visibleOptions(combo: Element | null, doc: Document): Element[] {
  const popup = controlledPopup(combo)
  if (popup) return dedupeNested(visibleIn(popup, kOptionSelector))
  // It names a popup that is not rendered yet (Ant Design renders on first open): nothing shown.
  if (combo?.hasAttribute('aria-controls') || combo?.hasAttribute('aria-owns')) return []
  return dedupeNested(visibleIn(doc, kOptionSelector).filter((o) => o.closest(kPopupSelector)))
}

function dedupeNested(els: Element[]): Element[] {
  return els.filter((el) => !els.some((other) => other !== el && other.contains(el)))
}

type Pick = { el: Element } | { failure: ExecFailure }

function asCandidates(options: Element[]): Candidate[] {
  return options
    .slice(0, 10)
    .map((o) => ({ id: o.id ? `css:#${o.id}` : `text:"${readText(o)}"`, label: readText(o).slice(0, 50), score: 0 }))
}

/** Exact text first, then a unique substring; two equal options is AMBIGUOUS, none NOT_FOUND. */
export function pickOption(options: Element[], value: string, what: string): Pick {
  const want = normalize(value)
  const exact = options.filter((o) => readText(o) === want || o.getAttribute('title') === want)
  if (exact.length === 1) return { el: exact[0] }
  if (exact.length > 1)
    return {
      failure: fail('AMBIGUOUS', `${what} has ${exact.length} options called "${want}".`, {
        candidates: asCandidates(exact),
      }),
    }
  const lower = want.toLowerCase()
  const partial = options.filter((o) => readText(o).toLowerCase().includes(lower))
  if (partial.length === 1) return { el: partial[0] }
  if (partial.length > 1)
    return {
      failure: fail(
        'AMBIGUOUS',
        `"${want}" is part of ${partial.length} options of ${what}: ${partial.map((o) => `"${readText(o)}"`).join(', ')}.`,
        { candidates: asCandidates(partial) },
      ),
    }
  return {
    failure: fail(
      'ELEMENT_NOT_FOUND',
      `${what} has no option "${want}". Options: ${options.map((o) => `"${readText(o)}"`).join(', ') || '(none shown)'}.`,
      {
        candidates: asCandidates(options),
        suggestion: 'Use one of the listed options.',
      },
    ),
  }
}

function remaining(ctx: OpContext, cap: number): number {
  return Math.max(0, Math.min(cap, ctx.deadline - Date.now()))
}

async function waitDisplayed(root: Element, values: string[], ctx: OpContext): Promise<string | null> {
  const shows = () => {
    const text =
      visibleTextOf(root).replace(/(\p{Script=Han})\s+(?=\p{Script=Han})/gu, '$1') +
      ' ' +
      [...root.querySelectorAll('input')].map((i) => i.value).join(' ')
    return values.every((v) => text.includes(normalize(v))) ? displayedValue(root) || text.trim() : null
  }
  return waitFor(shows, remaining(ctx, kDisplayWaitMs), ctx.signal, root.ownerDocument)
}

function success(
  root: Element,
  detail: string,
  value: string,
  changes?: ExecSuccess['changes'],
  msg?: ExecSuccess['msg'],
): ExecSuccess {
  return {
    ok: true,
    detail,
    changes: { urlChanged: false, domMutations: 0, newModals: [], focusChanged: false, ...changes, value },
    ...(msg ? { msg } : {}),
  }
}

/** Opens the dropdown (when closed) and waits for its options. */
async function openOptions(trigger: Element, combo: Element | null, ctx: OpContext): Promise<Element[] | ExecFailure> {
  const doc = trigger.ownerDocument
  let options = visibleOptions(combo, doc)
  if (options.length && combo?.getAttribute('aria-expanded') !== 'false') return options
  const opened = await clickOp(trigger, ctx, { expectEffect: false })
  if (!opened.ok) return opened
  options =
    (await waitFor(
      () => {
        const o = visibleOptions(combo, doc)
        return o.length ? o : null
      },
      remaining(ctx, kPopupWaitMs),
      ctx.signal,
    )) ?? []
  if (!options.length)
    return fail('ELEMENT_NOT_FOUND', `Opened ${quoteLabel(trigger)} but no options appeared.`, {
      suggestion: 'The list may load later or need a search text first.',
    })
  return options
}

/** Element Plus el-select / el-autocomplete, Ant Design a-select / a-auto-complete, ARIA comboboxes. */
const dropdown: WidgetDescriptor = {
  name: 'dropdown',
  root: (el) =>
    el.closest('.el-select,.el-select-v2,.el-autocomplete,.ant-select:not(.ant-cascader)') ??
    (el.matches('[role=combobox]') ? el : null),
  async choose(root, { values, ctx }) {
    const combo = root.matches('[role=combobox]') ? root : root.querySelector('[role=combobox],input')
    const trigger = root.querySelector('.el-select__wrapper,.ant-select-selector,.el-input__wrapper') ?? root
    const editable = combo instanceof viewOf(root).HTMLInputElement && !combo.readOnly && !combo.disabled
    const what = quoteLabel(combo ?? root)
    const picked: string[] = []
    let changes: ExecSuccess['changes']
    for (const value of values) {
      // Autocompletes and filterable selects show suggestions for what is typed.
      if (editable) {
        const typed = await enterTextOp(combo!, value, ctx, 'type')
        if (!typed.ok) return typed
      }
      const options = await openOptions(editable ? combo! : trigger, combo, ctx)
      if (!Array.isArray(options)) {
        if (editable && (combo as HTMLInputElement).value === value)
          return success(root, `Typed "${value}" into ${what} (no suggestion matched)`, value)
        return options
      }
      const pick = pickOption(options, value, what)
      if ('failure' in pick) return pick.failure
      const text = readText(pick.el)
      const done = await clickOp(pick.el, ctx, { expectEffect: false })
      if (!done.ok) return done
      changes = done.changes
      picked.push(text)
    }
    const shown = await waitDisplayed(root, picked, ctx)
    if (shown === null) {
      return fail(
        'NOT_ACTIONABLE',
        `Picked ${quoteTexts(picked)} in ${what} but it does not show ${picked.length > 1 ? 'them' : 'it'}: it shows "${displayedValue(root)}".`,
        { reason: 'no-effect' },
      )
    }
    // A multiple select stays open; close it so it does not cover the next field.
    if (
      values.length > 1 ||
      root.matches('.is-multiple,.ant-select-multiple') ||
      root.querySelector('.el-select__tags,.el-select__selection.is-near')
    ) {
      const target = combo ?? root
      pressKey(target, 'Escape')
    }
    const chosen = quoteTexts(picked)
    return success(
      root,
      `Selected ${chosen} in ${what}`,
      shown,
      changes,
      stepResult('selected', { values: chosen, label: what }),
    )
  },
}

/** Element Plus el-cascader and Ant Design a-cascader: one click per level of "浙江 / 杭州 / 西湖区". */
const cascader: WidgetDescriptor = {
  name: 'cascader',
  root: (el) => el.closest('.el-cascader,.ant-cascader'),
  async choose(root, { values, ctx }) {
    const path = values.length > 1 ? values : values[0].split(/\s*[/>＞,，]\s*/).filter(Boolean)
    const trigger = root.querySelector('.el-input__wrapper,.ant-select-selector') ?? root
    const what = quoteLabel(root.querySelector('input') ?? root)
    const doc = root.ownerDocument
    const menusNow = () => visibleIn(doc, '.el-cascader-menu,.ant-cascader-menu')
    if (!menusNow().length) {
      const opened = await clickOp(trigger, ctx, { expectEffect: false })
      if (!opened.ok) return opened
    }
    for (let level = 0; level < path.length; level++) {
      const menu = await waitFor(() => menusNow()[level] ?? null, remaining(ctx, kPopupWaitMs), ctx.signal)
      if (!menu)
        return fail(
          'ELEMENT_NOT_FOUND',
          `${what} shows no level ${level + 1} for "${path.slice(0, level).join(' / ')}".`,
        )
      const items = visibleIn(menu, '.el-cascader-node,.ant-cascader-menu-item,[role=menuitem]')
      const pick = pickOption(items, path[level], `level ${level + 1} of ${what}`)
      if ('failure' in pick) return pick.failure
      const done = await clickOp(pick.el, ctx, { expectEffect: false })
      if (!done.ok) return done
    }
    const last = path[path.length - 1]
    const shown = await waitDisplayed(root, [last], ctx)
    if (shown === null)
      return fail('NOT_ACTIONABLE', `Picked "${path.join(' / ')}" in ${what} but it shows "${displayedValue(root)}".`, {
        reason: 'no-effect',
      })
    return success(
      root,
      `Selected "${path.join(' / ')}" in ${what}`,
      shown,
      undefined,
      stepResult('selected', { values: `"${path.join(' / ')}"`, label: what }),
    )
  },
}

/** Element Plus el-date-picker and Ant Design a-date-picker: type the date, confirm with Enter. */
const datePicker: WidgetDescriptor = {
  name: 'date-picker',
  root: (el) => el.closest('.el-date-editor,.ant-picker'),
  async choose(root, { values, ctx }) {
    const input = root.querySelector('input')
    if (!input)
      return fail('NOT_ACTIONABLE', `${quoteLabel(root)} has no input to type a date into.`, { reason: 'wrong-kind' })
    const value = values[0]
    const opened = await clickOp(input, ctx, { expectEffect: false })
    if (!opened.ok) return opened
    // Ant Design keeps the input read-only until the panel is open; give it that moment.
    await waitFor(() => !input.readOnly || null, remaining(ctx, 500), ctx.signal)
    const typed = await enterTextOp(input, value, ctx, 'fill')
    if (!typed.ok) return typed
    dispatchKey(input, keyInfo('Enter'))
    // What was typed may be the picker's own form of a date written another way (native.ts pickerText).
    const typedText = typed.changes.value ?? value
    const shown = await waitFor(
      () => (input.value === typedText ? input.value : null),
      remaining(ctx, kDisplayWaitMs),
      ctx.signal,
    )
    if (shown === null)
      return fail(
        'NOT_ACTIONABLE',
        `Typed "${value}" into ${quoteLabel(input)} but the picker shows "${input.value}".`,
        { reason: 'value-rejected', suggestion: 'Write the date in the format the picker shows.' },
      )
    // Close the panel when Enter left it open, so it does not cover the next field.
    await sleep(50, ctx.signal).catch(() => undefined)
    if (visibleIn(root.ownerDocument, '.el-picker-panel,.ant-picker-dropdown:not(.ant-picker-dropdown-hidden)').length)
      pressKey(input, 'Escape')
    return success(
      root,
      `Set ${quoteLabel(input)} to "${value}"`,
      shown,
      typed.changes,
      stepResult('set', { label: quoteLabel(input), value: `"${value}"` }),
    )
  },
}

/** Element Plus el-dropdown and Ant Design a-dropdown menus: open by hover or click, pick the item. */
const menu: WidgetDescriptor = {
  name: 'menu',
  root: (el) => el.closest('.el-dropdown,.ant-dropdown-trigger,[aria-haspopup=menu],[aria-haspopup=true]'),
  async choose(root, { values, ctx }) {
    const doc = root.ownerDocument
    const trigger = root.querySelector('button,.el-dropdown-link,[role=button]') ?? root
    const items = () => {
      const found = visibleIn(doc, '.el-dropdown-menu__item,.ant-dropdown-menu-item,[role=menuitem]')
      return found.length ? found : null
    }
    if (!items()) {
      const hovered = await hoverOp(trigger, ctx)
      if (!hovered.ok) return hovered
      if (!(await waitFor(items, remaining(ctx, 400), ctx.signal))) {
        const clicked = await clickOp(trigger, ctx, { expectEffect: false })
        if (!clicked.ok) return clicked
      }
    }
    const shown = await waitFor(items, remaining(ctx, kPopupWaitMs), ctx.signal)
    if (!shown) return fail('ELEMENT_NOT_FOUND', `${quoteLabel(trigger)} opened no menu.`)
    const pick = pickOption(shown, values[0], `the menu of ${quoteLabel(trigger)}`)
    if ('failure' in pick) return pick.failure
    const label = labelOf(pick.el)
    const done = await clickOp(pick.el, ctx)
    if (!done.ok) return done
    return {
      ok: true,
      detail: `Chose "${label}" from the menu of ${quoteLabel(trigger)}`,
      changes: done.changes,
      msg: stepResult('chose', { value: `"${label}"`, label: quoteLabel(trigger) }),
    }
  },
}

/** In order: the more specific widget first (Ant Design's cascader is also an .ant-select). */
export const kWidgets: readonly WidgetDescriptor[] = [cascader, datePicker, dropdown, menu]

export function widgetFor(el: Element): { widget: WidgetDescriptor; root: Element } | null {
  for (const widget of kWidgets) {
    const root = widget.root(el)
    if (root) return { widget, root }
  }
  return null
}

/** A native <select>: options by value or label, every value for a multiple select. */
/**
 * A native <select>. One that takes several values keeps what is already chosen and adds these
 * (a person choosing two names in a list does it in two goes), unless `replace` says the step
 * names the whole choice ("only Bob"). `toggle` is a click on an option of such a list: as a
 * Ctrl+click, it chooses an option that was not chosen and un-chooses one that was.
 */
export async function chooseNative(
  el: HTMLSelectElement,
  values: string[],
  ctx: OpContext,
  how: { replace?: boolean; toggle?: HTMLOptionElement } = {},
): Promise<ExecSuccess | ExecFailure> {
  const what = quoteLabel(el)
  const options = [...el.options]
  const chosen: HTMLOptionElement[] = how.toggle ? [how.toggle] : []
  for (const v of how.toggle ? [] : values) {
    const want = normalize(v)
    const match =
      options.find((o) => o.value === v) ??
      options.find((o) => normalize(o.text) === want) ??
      options.find((o) => normalize(o.text).toLowerCase().includes(want.toLowerCase()))
    if (!match) {
      return fail(
        'ELEMENT_NOT_FOUND',
        `${what} has no option "${v}". Options: ${options.map((o) => `"${normalize(o.text)}"`).join(', ')}.`,
        {
          candidates: options.slice(0, 10).map((o) => ({ id: o.value, label: normalize(o.text), score: 0 })),
        },
      )
    }
    if (match.disabled)
      return fail('NOT_ACTIONABLE', `Option "${normalize(match.text)}" of ${what} is disabled.`, { reason: 'disabled' })
    chosen.push(match)
  }
  if (chosen.length > 1 && !el.multiple) return fail('INVALID', `${what} takes one value, not ${chosen.length}.`)
  const ready = await ensureActionable(el, { visible: true, enabled: true, allowForce: true }, ctx)
  if (!ready.ok) return ready
  el.focus({ preventScroll: true })
  const keep = el.multiple && !how.replace
  if (how.toggle && el.multiple && how.toggle.selected) {
    how.toggle.selected = false
    chosen.length = 0
  } else for (const o of options) o.selected = chosen.includes(o) || (keep && o.selected)
  const V = viewOf(el)
  el.dispatchEvent(new V.Event('input', { bubbles: true, composed: true }))
  el.dispatchEvent(new V.Event('change', { bubbles: true }))
  const labels = chosen.map((o) => normalize(o.text))
  const shown = [...el.selectedOptions].map((o) => normalize(o.text))
  if (labels.some((l) => !shown.includes(l)))
    return fail(
      'NOT_ACTIONABLE',
      `Chose ${labels.join(', ')} in ${what} but the page changed it to ${shown.join(', ') || 'nothing'}.`,
      { reason: 'value-rejected' },
    )
  if (how.toggle && !chosen.length) {
    const off = quoteTexts([normalize(how.toggle.text)])
    return success(el, `Un-chose ${off} in ${what} (still chosen: ${quoteTexts(shown) || 'nothing'})`, shown.join(', '))
  }
  const picked = quoteTexts(labels)
  const kept = keep ? shown.filter((l) => !labels.includes(l)) : []
  // A list that keeps earlier choices says them, so the model knows what the list holds now.
  const also = kept.length ? ` (also chosen: ${quoteTexts(kept)})` : ''
  return success(
    el,
    `Selected ${picked} in ${what}${also}`,
    shown.join(', '),
    undefined,
    stepResult('selected', { values: picked, label: what }),
  )
}

/** The <select> an <option> (or its <optgroup>) belongs to. */
export function selectOfOption(el: Element): { select: HTMLSelectElement; option: HTMLOptionElement } | null {
  const V = viewOf(el)
  const option = el instanceof V.HTMLOptionElement ? el : null
  const select = option?.closest('select')
  return option && select instanceof V.HTMLSelectElement ? { select, option } : null
}

/**
 * A click on a native option selects it, as a person's click in the open list does (the closed
 * list draws no option anywhere a pointer could reach). In a list that takes several values it
 * acts as Ctrl+click: the others stay chosen.
 */
export function clickNativeOption(
  option: HTMLOptionElement,
  select: HTMLSelectElement,
  ctx: OpContext,
): Promise<ExecSuccess | ExecFailure> {
  if (
    option.disabled ||
    (option.parentElement instanceof viewOf(option).HTMLOptGroupElement && option.parentElement.disabled)
  ) {
    return Promise.resolve(
      fail('NOT_ACTIONABLE', `Option "${normalize(option.text)}" of ${quoteLabel(select)} is disabled.`, {
        reason: 'disabled',
      }),
    )
  }
  return chooseNative(select, [], ctx, { toggle: option })
}
