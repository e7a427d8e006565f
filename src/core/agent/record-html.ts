/**
 * A run's record as one file a person can open anywhere (docs/run-record.md, "Export"): HTML with
 * the timeline and the pictures inline as data URLs, no script, no external resource (a strict
 * Content-Security-Policy says so to the browser too), every text escaped; or the record as JSON.
 */
import type { RecordEvent, RunRecord } from './record'

/** HTML text and attribute values: the record holds page text, which is an attacker's. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)
}

/** Only what a screenshot can be goes into an `<img>` data URL. */
const kImageTypes = /^image\/(png|jpeg|webp)$/
const kBase64 = /^[A-Za-z0-9+/]*={0,2}$/

export function recordJson(record: RunRecord): string {
  return `${JSON.stringify(record, null, 2)}\n`
}

const kStyle = `body{font:14px/1.45 system-ui,sans-serif;margin:24px auto;max-width:960px;padding:0 16px;color:#1d1d1f}
h1{font-size:20px}table.meta td{padding:2px 12px 2px 0;vertical-align:top}
ol.timeline{list-style:none;padding:0}ol.timeline>li{border-left:3px solid #ccc;margin:0 0 12px;padding:4px 12px}
li.ok{border-color:#2e7d32}li.failed,li.failure{border-color:#c62828}li.question{border-color:#f9a825}li.model{border-color:#1565c0}
.verdict{padding:8px 12px;border-radius:6px;margin:12px 0}.verdict.done{background:#e8f5e9}.verdict.not{background:#ffebee}
pre{white-space:pre-wrap;word-break:break-word;background:#f5f5f5;padding:8px;max-height:400px;overflow:auto}
img{max-width:100%;border:1px solid #ccc}.code{font-family:monospace;font-weight:bold}small{color:#666}`

function time(ms: number): string {
  return new Date(ms).toISOString()
}

function dl(rows: [string, string | undefined][]): string {
  return `<table class="meta">${rows
    .filter(([, v]) => v !== undefined && v !== '')
    .map(([k, v]) => `<tr><td>${escapeHtml(k)}</td><td>${escapeHtml(v!)}</td></tr>`)
    .join('')}</table>`
}

function shotHtml(record: RunRecord, id: string, caption = 'Screenshot sent to the model'): string {
  const shot = record.shots.find((s) => s.id === id)
  if (!shot) return ''
  if (!shot.data || !kImageTypes.test(shot.mediaType) || !kBase64.test(shot.data))
    return `<p><small>${escapeHtml(caption)} (${escapeHtml(id)}): not kept (the record's size bound).</small></p>`
  return `<figure><img alt="${escapeHtml(caption)}" data-shot="${escapeHtml(id)}" src="data:${shot.mediaType};base64,${shot.data}"><figcaption><small>${escapeHtml(caption)}, ${escapeHtml(time(shot.at))}</small></figcaption></figure>`
}

function eventHtml(record: RunRecord, e: RecordEvent): string {
  const at = `<small>${escapeHtml(time(e.at))}</small> `
  switch (e.kind) {
    case 'step':
      return `<li class="step ${e.status}" data-kind="step" data-status="${e.status}">${at}<b>Step ${e.index + 1}: ${escapeHtml(e.action)}</b> ${escapeHtml(e.description ?? '')}${dl(
        [
          ['status', e.status],
          ['judged', e.judged],
          ['element', e.element],
          ['found by', e.rung],
          ['result', e.detail],
          ['code', e.code],
          ['time', e.ms !== undefined ? `${e.ms} ms` : undefined],
          ['params', JSON.stringify(e.params)],
        ],
      )}</li>`
    case 'question':
      return `<li class="question" data-kind="question">${at}<b>${e.type === 'ask' ? 'Question to the person' : 'Asked before a risky step'}</b>${dl(
        [
          ['step', String(e.step + 1)],
          ['question', e.question],
          ['element', e.element],
          ['category', e.category],
          ['answer', e.answer],
        ],
      )}</li>`
    case 'failure':
      return `<li class="failure" data-kind="failure">${at}<b>Failure <span class="code">${escapeHtml(e.code)}</span></b><p>${escapeHtml(e.message)}</p></li>`
    case 'note':
      return `<li class="note" data-kind="note">${at}${escapeHtml(e.text)}</li>`
    case 'shot':
      return `<li class="shot" data-kind="shot">${at}${escapeHtml(e.caption)}${shotHtml(record, e.shot, e.caption)}</li>`
    case 'model': {
      const input = e.input
        .map(
          (m) =>
            `<details><summary>${escapeHtml(m.role)} (${m.content.length} characters)</summary><pre>${escapeHtml(m.content)}</pre></details>${m.shot ? shotHtml(record, m.shot) : ''}`,
        )
        .join('')
      return `<li class="model" data-kind="model">${at}<b>Model call</b> <small>${e.ms} ms, ${e.tokens.input} in / ${e.tokens.output} out tokens${e.history ? `, after ${e.history} earlier messages` : ''}</small>${
        e.error ? `<p>Error: ${escapeHtml(e.error)}</p>` : ''
      }${e.dropped ? '<p><small>Texts not kept (the record’s size bound).</small></p>' : ''}${
        e.system ? `<details><summary>System prompt</summary><pre>${escapeHtml(e.system)}</pre></details>` : ''
      }${input}<details open><summary>Reply</summary><pre>${escapeHtml(e.output)}</pre></details></li>`
    }
  }
}

const kVerdictWords: Record<string, string> = {
  verified: 'Done: checked on the page',
  answered: 'Answered from the page (nothing was changed)',
  judged: 'Done, by the model with the page after its steps in front of it',
  unverified: 'Not shown to be done: the model said done, but nothing on the page shows it',
  completed: 'Every step ran (no model; nothing checked their effect)',
  'not-done': 'Not done',
}

export function recordHtml(record: RunRecord): string {
  const v = record.verdict
  const verdict = v
    ? `<div class="verdict ${v.done ? 'done' : 'not'}" data-verdict="${escapeHtml(v.kind)}"><b>${escapeHtml(kVerdictWords[v.kind] ?? v.kind)}</b>${dl(
        [
          ['evidence text', v.evidence?.text?.map((t) => `“${t}”`).join(', ')],
          ['URL', v.evidence?.url],
          ['element', v.evidence?.element],
          ['not on the page', v.missing?.map((t) => `“${t}”`).join(', ')],
        ],
      )}</div>`
    : ''
  const meta = dl([
    ['request', record.request],
    ['started on', record.startUrl],
    ['status', record.status],
    ['started', time(record.startedAt)],
    ['ended', record.endedAt !== undefined ? time(record.endedAt) : undefined],
    ['model', record.model ? `${record.model.provider} / ${record.model.model}` : undefined],
    ['tokens', `${record.tokens.input} in / ${record.tokens.output} out`],
    ['cost', record.costUsd !== undefined ? `$${record.costUsd.toFixed(4)}` : 'not priced'],
    ['answer', record.answer],
    ['note', record.trimmed ? 'Some pictures or model texts were dropped to keep the record small.' : undefined],
  ])
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Ava run: ${escapeHtml(record.request.slice(0, 80))}</title>
<style>${kStyle}</style></head>
<body><h1>Ava run record</h1>
${verdict}${meta}
<h2>Timeline</h2>
<ol class="timeline">${record.events.map((e) => eventHtml(record, e)).join('\n')}</ol>
</body></html>
`
}
