// Draws Ava's icon (a violet disc with a white spark) at the four manifest sizes, as PNG,
// with nothing but zlib: run once when the design changes; the PNGs are committed.
import { deflateSync } from 'node:zlib'
import { writeFileSync, mkdirSync } from 'node:fs'
import { resolve } from 'node:path'

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  return c >>> 0
})
const crc = (buf) => {
  let c = 0xffffffff
  for (const b of buf) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8)
  return (c ^ 0xffffffff) >>> 0
}
function chunk(type, data) {
  const len = Buffer.alloc(4)
  len.writeUInt32BE(data.length)
  const td = Buffer.concat([Buffer.from(type), data])
  const c = Buffer.alloc(4)
  c.writeUInt32BE(crc(td))
  return Buffer.concat([len, td, c])
}
function png(size) {
  const raw = Buffer.alloc(size * (size * 4 + 1))
  const r = size / 2
  for (let y = 0; y < size; y++) {
    raw[y * (size * 4 + 1)] = 0
    for (let x = 0; x < size; x++) {
      const dx = x + 0.5 - r,
        dy = y + 0.5 - r
      const d = Math.hypot(dx, dy)
      const t = (x + y) / (2 * size)
      let [R, G, B] = [
        Math.round(91 + (155 - 91) * t),
        Math.round(91 + (77 - 91) * t),
        247 + Math.round((255 - 247) * t),
      ]
      // A four-pointed spark in the middle.
      const s = Math.abs(dx) / r,
        u = Math.abs(dy) / r
      const spark = Math.sqrt(s) + Math.sqrt(u) < 0.75
      if (spark) [R, G, B] = [255, 255, 255]
      const alpha = Math.max(0, Math.min(1, r - d)) * 255
      const o = y * (size * 4 + 1) + 1 + x * 4
      raw[o] = R
      raw[o + 1] = G
      raw[o + 2] = B
      raw[o + 3] = Math.round(alpha)
    }
  }
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(size, 0)
  ihdr.writeUInt32BE(size, 4)
  ihdr[8] = 8
  ihdr[9] = 6
  ihdr[10] = 0
  ihdr[11] = 0
  ihdr[12] = 0
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ])
}
const dir = resolve(import.meta.dirname, '../public/icons')
mkdirSync(dir, { recursive: true })
for (const s of [16, 32, 48, 128]) writeFileSync(resolve(dir, `${s}.png`), png(s))
console.log('icons written to', dir)
