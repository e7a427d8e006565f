// pdf.js ships no types for its worker module; src/background/pdf-text.ts hands it to pdf.js whole.
declare module 'pdfjs-dist/legacy/build/pdf.worker.mjs' {
  export const WorkerMessageHandler: unknown
}
