/** Saves text as a file through the page's own download (no `downloads` permission needed). */
export function downloadText(name: string, text: string, type = 'text/plain'): void {
  const url = URL.createObjectURL(new Blob([text], { type }))
  const a = document.createElement('a')
  a.href = url
  a.download = name
  a.click()
  // The click has handed the blob to the download; revoking at once can cancel it in Chromium.
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}
