import { defineStore } from 'pinia'
import { ref } from 'vue'
import { send } from '../messaging'
import type { Schedule, ScheduleDraft } from '../core/schedule/model'
import type { SiteNotes } from '../core/site-notes'
import { failure, type Failure } from '../ui/failure'

/** Schedules and site notes (docs/agent.md, "The errand"), read and changed through the background. */
export const useErrandStore = defineStore('errand', () => {
  const schedules = ref<Schedule[]>([])
  const notes = ref<SiteNotes>({})
  const loading = ref(false)
  const error = ref<Failure | null>(null)
  async function attempt(fn: () => Promise<void>): Promise<boolean> {
    try {
      await fn()
      error.value = null
      return true
    } catch (e) {
      error.value = failure(e)
      return false
    }
  }
  async function load(): Promise<void> {
    loading.value = true
    await attempt(async () => {
      schedules.value = (await send('ui→bg:schedule.list', {})).schedules
      notes.value = (await send('ui→bg:notes.list', {})).notes
    })
    loading.value = false
  }
  const addSchedule = (draft: ScheduleDraft) =>
    attempt(async () => {
      await send('ui→bg:schedule.add', draft)
      schedules.value = (await send('ui→bg:schedule.list', {})).schedules
    })
  const removeSchedule = (id: string) =>
    attempt(async () => {
      await send('ui→bg:schedule.remove', { id })
      schedules.value = (await send('ui→bg:schedule.list', {})).schedules
    })
  const addNote = (site: string, text: string) =>
    attempt(async () => void (notes.value = (await send('ui→bg:notes.add', { site, text })).notes))
  const removeNote = (origin: string, index: number) =>
    attempt(async () => void (notes.value = (await send('ui→bg:notes.remove', { origin, index })).notes))
  return { schedules, notes, loading, error, load, addSchedule, removeSchedule, addNote, removeNote }
})
