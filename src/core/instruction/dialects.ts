import type { InstructionName } from '../vocabulary'

/**
 * What models write instead of Ava's own words, as data (docs/instruction-schema.md, "What Ava
 * reads"). The reader (read.ts) and the splitter (stream.ts) hold no list of foreign words of their
 * own: a new way of answering is a row here and a row in the shape tests
 * (test/core/instruction-dialects.test.ts), not a new branch in either.
 *
 * A word that could mean two actions is a list: the reader takes the one the step's own fields
 * show (an `assertion` makes `check` a verify), and otherwise asks the model again rather than
 * guess (`AMBIGUOUS`, a SCHEMA error the run answers with one more turn).
 */
export interface Dialect {
  /** Who writes it; shown in docs and test names. */
  name: string
  /** Their words for Ava's actions (snake_case). */
  actions?: Record<string, InstructionName | readonly InstructionName[]>
  /** Their names for Ava's fields (snake_case), tried after Ava's own. */
  fields?: Partial<Record<MappedField, readonly string[]>>
}

export type MappedField =
  | 'url'
  | 'target_id'
  | 'semantic_locator'
  | 'fallback_selector'
  | 'value'
  | 'assertion'
  | 'selector'
  | 'key'
  | 'direction'
  | 'action'
  | 'args'
  | 'answer'
  | 'question'
  | 'choices'
  | 'limit'
  | 'x'
  | 'y'

export const kDialects: readonly Dialect[] = [
  {
    name: "Ava's neighbours (the words other agents and models reach for)",
    actions: {
      go_to: 'navigate',
      goto: 'navigate',
      open: 'navigate',
      open_url: 'navigate',
      visit: 'navigate',
      navigate_to: 'navigate',
      go: 'navigate',
      navigate_to_url: 'navigate',
      open_page: 'navigate',
      load_url: 'navigate',
      browse: 'navigate',
      go_to_page: 'navigate',
      tap: 'click',
      click_element: 'click',
      press_button: 'click',
      click_on: 'click',
      click_button: 'click',
      click_link: 'click',
      toggle: 'click',
      type: 'input',
      fill: 'input',
      type_text: 'input',
      enter_text: 'input',
      input_text: 'input',
      set_value: 'input',
      fill_in: 'input',
      fill_field: 'input',
      write: 'input',
      select_option: 'select',
      choose: 'select',
      pick: 'select',
      choose_option: 'select',
      assert: 'verify',
      expect: 'verify',
      assert_text: 'verify',
      verify_text: 'verify',
      wait_for: 'wait',
      wait_for_selector: 'wait',
      wait_for_element: 'wait',
      press_key: 'press',
      key_press: 'press',
      keypress: 'press',
      send_key: 'press',
      hit_key: 'press',
      scroll_to: 'scroll',
      scroll_down: 'scroll',
      scroll_up: 'scroll',
      scroll_page: 'scroll',
      upload_file: 'upload',
      attach_file: 'upload',
      run: 'run_action',
      call_action: 'run_action',
      run_pack_action: 'run_action',
      ask_user: 'ask',
      ask_human: 'ask',
      ask_person: 'ask',
      question: 'ask',
      request_input: 'ask',
      ask_for_input: 'ask',
      human_input: 'ask',
      handoff: 'ask',
      hand_off: 'ask',
      ask_for_help: 'ask',
      scroll_and_collect: 'collect',
      collect_items: 'collect',
      gather: 'collect',
      read_all: 'collect',
      read_feed: 'collect',
      scrape: 'collect',
      extract_all: 'collect',
      finish: 'done',
      answer: 'done',
      complete: 'done',
      final_answer: 'done',
      respond: 'done',
      reply: 'done',
      task_complete: 'done',
      finished: 'done',
      stop: 'done',
      take_screenshot: 'screenshot',
      mouse_over: 'hover',
      hover_over: 'hover',
      // Two meanings each: a checkbox ticked or a fact checked; text typed or the Enter key.
      check: ['verify', 'click'],
      enter: ['input', 'press'],
    },
    fields: {
      url: ['url', 'href', 'link', 'address', 'page'],
      target_id: ['target_id', 'id', 'element_id', 'ref', 'element_ref', 'agent_id', 'element_index', 'target_index'],
      semantic_locator: [
        'semantic_locator',
        'locator',
        'element',
        'target',
        'element_description',
        'target_description',
        'element_name',
        'label',
      ],
      fallback_selector: ['fallback_selector', 'css_selector', 'css'],
      value: ['value', 'text', 'content', 'input', 'option', 'input_text', 'text_to_type'],
      assertion: ['assertion', 'expected', 'expectation', 'condition'],
      selector: ['selector'],
      key: ['key', 'keys'],
      direction: ['direction'],
      action: ['action', 'action_name', 'name'],
      args: ['args', 'arguments'],
      answer: ['answer', 'result', 'message', 'final_answer', 'response', 'text', 'content', 'summary'],
      question: ['question', 'prompt', 'message', 'text', 'content'],
      choices: ['choices', 'options', 'answers'],
      limit: ['limit', 'max_items', 'max', 'count', 'items'],
      x: ['x'],
      y: ['y'],
    },
  },
  {
    // browser-use (and nanobrowser, which speaks it): `{"action": [{"click_element_by_index": {"index": 3}}]}`.
    name: 'browser-use',
    actions: {
      click_element_by_index: 'click',
      go_to_url: 'navigate',
      open_tab: 'navigate',
      input_text: 'input',
      send_keys: 'press',
      select_dropdown_option: 'select',
      upload_file: 'upload',
      done: 'done',
    },
    fields: { target_id: ['index'], value: ['text', 'path'], key: ['keys'], answer: ['text'] },
  },
  {
    // Stagehand's observe results: `{"method": "fill", "selector": "xpath=…", "arguments": ["alice"]}`.
    name: 'Stagehand',
    actions: {
      fill: 'input',
      type: 'input',
      click: 'click',
      press: 'press',
      scroll_to: 'scroll',
      scroll_into_view: 'scroll',
      select_option_from_dropdown: 'select',
      hover: 'hover',
      next_chunk: 'scroll',
      prev_chunk: 'scroll',
    },
    fields: { value: ['arguments'], key: ['arguments'], fallback_selector: ['selector', 'xpath'] },
  },
  {
    // Playwright MCP's tools, as models trained on them name them: `{"name": "browser_click", "arguments": {"ref": "e12"}}`.
    name: 'Playwright MCP',
    actions: {
      browser_click: 'click',
      browser_type: 'input',
      browser_fill: 'input',
      browser_navigate: 'navigate',
      browser_select_option: 'select',
      browser_press_key: 'press',
      browser_hover: 'hover',
      browser_file_upload: 'upload',
      browser_take_screenshot: 'screenshot',
      browser_wait_for: 'wait',
    },
    fields: { value: ['values', 'paths'], semantic_locator: ['element'] },
  },
  {
    // Anthropic's computer use and OpenAI's computer-use model: `{"action": "left_click", "coordinate": [x, y]}`.
    name: 'computer use',
    actions: {
      left_click: 'click',
      double_click: 'click',
      mouse_move: 'hover',
      key: 'press',
      type_text: 'input',
      screenshot: 'screenshot',
      scroll: 'scroll',
    },
    fields: { key: ['text', 'keys'], value: ['text'], direction: ['scroll_direction'], x: ['coordinate'] },
  },
  {
    // Skyvern's actions: `{"action_type": "INPUT_TEXT", "element_id": "…", "text": "…"}`.
    name: 'Skyvern',
    actions: {
      input_text: 'input',
      select_option: 'select',
      upload_file: 'upload',
      complete: 'done',
      terminate: 'done',
    },
    fields: { target_id: ['element_id'], value: ['text', 'option'] },
  },
]

/** Keys that may hold the action's word (snake_case), in the order they are tried. */
export const kTypeKeys = [
  'action_type',
  'type',
  'action',
  'kind',
  'command',
  'op',
  'operation',
  'name',
  'method',
  'tool',
  'tool_name',
  'function_name',
] as const

/** Keys whose object is a call written as the OpenAI API writes one (`{"type": "function", "function": {"name", "arguments"}}`). */
export const kCallKeys = ['function', 'function_call', 'tool_call', 'call'] as const

/**
 * Keys whose list or object holds the steps (compared without case, `_` and `-`): Ava's, other
 * agents' (`action` is browser-use's list), and a function-call list written into the text.
 */
export const kWrapperKeys = [
  'steps',
  'instructions',
  'instruction',
  'plan',
  'actions',
  'action',
  'commands',
  'tasks',
  'step',
  'tool_calls',
  'toolcalls',
  'function_calls',
  'functioncalls',
  'calls',
]

/** Each foreign word → the actions it may mean, from every dialect (the first dialect's meaning first). */
export const kActionWords: ReadonlyMap<string, readonly InstructionName[]> = (() => {
  const out = new Map<string, InstructionName[]>()
  for (const d of kDialects) {
    for (const [word, to] of Object.entries(d.actions ?? {})) {
      const list = out.get(word) ?? []
      for (const a of typeof to === 'string' ? [to] : to) if (!list.includes(a)) list.push(a)
      out.set(word, list)
    }
  }
  return out
})()

/** Each of Ava's fields → the names it may come from, Ava's own first, then each dialect's. */
export const kFieldNames: Readonly<Record<MappedField, readonly string[]>> = (() => {
  const out = {} as Record<MappedField, string[]>
  for (const d of kDialects) {
    for (const [field, names] of Object.entries(d.fields ?? {}) as [MappedField, readonly string[]][]) {
      const list = (out[field] ??= [])
      for (const n of names) if (!list.includes(n)) list.push(n)
    }
  }
  return out
})()

/**
 * Chat-template text a server passed through raw (no parser for the model's template), and what it
 * stands for in a reply Ava reads: reasoning (`<think>`), a separator between calls (a new line), or
 * nothing. `opens` names the state a marker begins and `closes` what a later marker ends it with;
 * `header` markers run to `until`, and what stands between is given to `call` (gpt-oss writes the
 * tool's name there). Sources: the models' chat templates on their model cards (gpt-oss's harmony
 * format, Qwen and Hermes `<tool_call>`, Llama 3.1's `<|python_tag|>`, Mistral's `[TOOL_CALLS]`).
 */
export interface TemplateMarker {
  marker: string
  becomes: string
  /** Who writes it (docs, test names). */
  who: string
  /** The reasoning block this marker opens, or the call; a later `end` marker closes it. */
  opens?: 'think' | 'call'
  /** For a marker that ends what another opened: the text for each (default: `becomes`). */
  ends?: { think?: string; call?: string }
  /** The marker's header runs to this text; `call` turns the header into the call's opening. */
  until?: string
  call?: (header: string) => string | undefined
}

export const kTemplateMarkers: readonly TemplateMarker[] = [
  { who: 'gpt-oss (harmony)', marker: '<|channel|>analysis<|message|>', becomes: '<think>', opens: 'think' },
  { who: 'gpt-oss (harmony)', marker: '<|channel|>final<|message|>', becomes: '' },
  {
    who: 'gpt-oss (harmony)',
    marker: '<|channel|>commentary',
    until: '<|message|>',
    becomes: '\n',
    opens: 'call',
    // ` to=functions.click <|constrain|>json`: the call's name, its arguments follow.
    call: (header) => {
      const name = /to=(?:functions\.)?([\w.-]+)/.exec(header)?.[1]
      return name ? `\n{"name": ${JSON.stringify(name)}, "arguments": ` : undefined
    },
  },
  { who: 'gpt-oss (harmony)', marker: '<|end|>', becomes: '\n', ends: { think: '</think>\n', call: '}\n' } },
  { who: 'gpt-oss (harmony)', marker: '<|call|>', becomes: '\n', ends: { call: '}\n' } },
  { who: 'gpt-oss (harmony)', marker: '<|return|>', becomes: '' },
  { who: 'gpt-oss (harmony)', marker: '<|start|>assistant', becomes: '' },
  { who: 'ChatML (Qwen, Hermes)', marker: '<|im_start|>assistant', becomes: '' },
  { who: 'ChatML (Qwen, Hermes)', marker: '<|im_end|>', becomes: '' },
  { who: 'Qwen, Hermes', marker: '<tool_call>', becomes: '\n' },
  { who: 'Qwen, Hermes', marker: '</tool_call>', becomes: '\n' },
  { who: 'function-calling fine-tunes', marker: '<function_call>', becomes: '\n' },
  { who: 'function-calling fine-tunes', marker: '</function_call>', becomes: '\n' },
  { who: 'Llama 3.1', marker: '<|python_tag|>', becomes: '\n' },
  { who: 'Llama 3', marker: '<|start_header_id|>assistant<|end_header_id|>', becomes: '' },
  { who: 'Llama 3', marker: '<|eot_id|>', becomes: '' },
  { who: 'Llama 3', marker: '<|eom_id|>', becomes: '' },
  { who: 'Mistral', marker: '[TOOL_CALLS]', becomes: '\n' },
  { who: 'Gemma', marker: '<end_of_turn>', becomes: '' },
  { who: 'Gemma', marker: '<start_of_turn>model', becomes: '' },
  { who: 'sentencepiece models', marker: '</s>', becomes: '' },
]

/**
 * Values written in another form than Ava's: a list where Ava takes one text (Stagehand's
 * `arguments`, Playwright MCP's `values`, OpenAI's `keys`), Playwright's `xpath=` selectors, a
 * point as `[x, y]`. Each returns the fields it fills; undefined leaves the value as it is.
 */
export const kFieldForms: Partial<Record<MappedField, (v: unknown) => Record<string, unknown> | undefined>> = {
  value: (v) =>
    Array.isArray(v) && v.every((x) => typeof x === 'string' || typeof x === 'number')
      ? { value: v.map(String).join(', ') }
      : record(v) && typeof record(v)!.label === 'string'
        ? { value: record(v)!.label }
        : undefined,
  key: (v) => (Array.isArray(v) && v.every((x) => typeof x === 'string') ? { key: v.join('+') } : undefined),
  fallback_selector: (v) =>
    typeof v === 'string' && /^(xpath|css)=/.test(v)
      ? { fallback_selector: v.replace(/^(xpath|css)=/, '$1:') }
      : undefined,
  x: (v) =>
    Array.isArray(v) && v.length === 2 && v.every((n) => typeof n === 'number') ? { x: v[0], y: v[1] } : undefined,
}

function record(v: unknown): Record<string, unknown> | null {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null
}
