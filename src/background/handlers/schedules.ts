import { handle, ProtocolError } from '../../messaging'
import { addNote, removeNote, SiteNoteError } from '../../core/site-notes'
import { siteNotesStore, watchCsvStore } from '../../storage/schedules'
import { addSchedule, listSchedules, removeSchedule } from '../schedules'

/** Only Ava's own pages edit schedules and notes: a web page can reach neither (its sender kind is `tab`). */
const kEditors = ['panel', 'popup', 'options'] as const

export function registerScheduleHandlers(): void {
  handle('ui→bg:schedule.list', kEditors, async () => ({ schedules: await listSchedules() }))
  handle('ui→bg:schedule.add', kEditors, async (draft) => ({ schedule: await addSchedule(draft) }))
  handle('ui→bg:schedule.remove', kEditors, async ({ id }) => ({ removed: await removeSchedule(id) }))
  handle('ui→bg:schedule.csv', kEditors, async ({ id }) => ({ csv: await watchCsvStore(id).get() }))

  handle('ui→bg:notes.list', kEditors, async () => ({ notes: await siteNotesStore.get() }))
  handle('ui→bg:notes.add', kEditors, async ({ site, text }) => {
    try {
      const notes = addNote(await siteNotesStore.get(), site, text)
      await siteNotesStore.set(notes)
      return { notes }
    } catch (e) {
      if (e instanceof SiteNoteError) throw new ProtocolError(e.code, e.message)
      throw e
    }
  })
  handle('ui→bg:notes.remove', kEditors, async ({ origin, index }) => {
    const notes = removeNote(await siteNotesStore.get(), origin, index)
    await siteNotesStore.set(notes)
    return { notes }
  })
}
