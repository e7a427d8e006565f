/**
 * A long markdown answer, as a model writes one when asked to explain at length: headings,
 * paragraphs with emphasis and links, lists, code and tables, repeated to `bytes`.:
 * "64 KB of markdown streamed in 12-character deltas did not finish in 200 s". Deterministic, so
 * the bench and the e2e test stream the same text every run. Streamed as prose, it must reach the
 * panel character for character: inline links, brackets and fenced code blocks
 * (one a ```json object) included, as well as autolinks and indented code.
 */
export function longMarkdownAnswer(bytes = 64 * 1024): string {
  const parts: string[] = []
  let size = 0
  for (let i = 0; size < bytes; i++) {
    const section = `## Part ${i + 1}: what the page offers

The **orders** page lists *every* order you placed since ${2000 + (i % 25)}, with a details link (<https://example.com/orders/${i}>) for each one. Filters narrow it by status and date; [the returns guide](https://example.com/help/returns?order=${i}) says what comes back [1].

    const order = await orders.get(${i})
    if (order.status === 'shipped') console.log(order.tracking)

\`\`\`ts
const rows = [{ id: ${i}, items: ['widget', 'gadget'] }]
\`\`\`

\`\`\`json
{ "order": ${i}, "status": "shipped", "items": [1, 2] }
\`\`\`

- Open the order, then choose \`Return\` next to item ${i}.
- Pick a reason; the refund goes back to the card you paid with.
  1. Print the label.
  2. Drop the parcel off within 14 days.

| Item | Qty | Price |
| ---- | --: | ----: |
| Widget ${i} | ${(i % 7) + 1} | $${(i * 3.17).toFixed(2)} |
| Gadget ${i} | 1 | $${(i * 1.5).toFixed(2)} |

> Returns after 30 days need the seller's OK.

`
    parts.push(section)
    size += section.length
  }
  return parts.join('').slice(0, bytes)
}
