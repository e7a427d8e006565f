/**
 * Reads the ids back out of a listing the way docs/page-representation.md tells the model to:
 * element tokens start every entry of an element line, and in a keyed row (`742: btn_edit_ …`)
 * an id ending in `_` stands for that id followed by `near_742`. Written apart from the
 * serialiser, so a test of one against the other checks the documented format, not the code.
 */
const kLead = /^(?:row|([^\s"[=:]+))( "(?:[^"\\]|\\.)*")?: /u

export function listedIds(text: string): string[] {
  const ids: string[] = []
  let inContent = false
  for (const [n, line] of text.split('\n').entries()) {
    if (n < 2) continue // title line and summary
    if (line.startsWith('## ')) {
      inContent = line === '## content'
      continue
    }
    if (
      inContent ||
      line.startsWith('### ') ||
      line.startsWith('… ') ||
      line.startsWith('(') ||
      / cross_origin_restricted /.test(line)
    )
      continue
    let rest = line
    let key = ''
    const lead = kLead.exec(line)
    if (lead) {
      key = lead[1] ?? ''
      rest = line.slice(lead[0].length)
    }
    for (const id of elementIds(rest)) ids.push(key && id.endsWith('_') ? `${id}near_${key}` : id)
  }
  return ids
}

/** The ids of `id[flags]=value "label"` entries separated by spaces. */
function elementIds(s: string): string[] {
  const out: string[] = []
  let i = 0
  const skipString = () => {
    // s[i] is the opening quote of a JSON string.
    for (i++; i < s.length && s[i] !== '"'; i++) if (s[i] === '\\') i++
    i++
  }
  while (i < s.length) {
    const start = i
    while (i < s.length && !' [='.includes(s[i])) i++
    out.push(s.slice(start, i))
    if (s[i] === '[') i = s.indexOf(']', i) + 1
    if (s[i] === '=') {
      i++
      if (s[i] === '"') skipString()
      else while (i < s.length && s[i] !== ' ') i++
    }
    if (s[i] === ' ' && s[i + 1] === '"') {
      i++
      skipString()
    }
    if (s[i] === ' ') i++
  }
  return out
}
