import browser from 'webextension-polyfill'
import { registerChatHandlers } from './handlers/chat'
import { registerActionHandlers } from './handlers/actions'
import { registerSettingsHandlers } from './handlers/settings'
import { registerFlowHandlers } from './handlers/flows'
import { registerPackHandlers } from './handlers/packs'
import { liveRuns, resumeRuns } from './agent'
import { watchDownloads } from './downloads'
import { watchRunsForWake } from './wake'
import { watchNavigations } from './tabs'
import { watchPanels } from './panels'
import { watchHistories } from './conversation'
import { watchSelectorCaches } from './actions'
import { installFlowRepair } from './flow-repair'
import { watchFirstRun } from './first-run'
import { sendToTab } from '../messaging'
import { registerMcpHandlers, startMcpBridge } from './mcp'
import { watchQuestionTabs } from './questions'
import { watchSchedules } from './schedules'
import { registerScheduleHandlers } from './handlers/schedules'

// Listeners are registered synchronously at the top level so that an event that wakes the
// worker finds them in place (MV3 service worker lifecycle).
registerSettingsHandlers()
registerChatHandlers()
registerActionHandlers()
registerFlowHandlers()
registerPackHandlers()
registerMcpHandlers()
registerScheduleHandlers()
watchNavigations()
watchPanels()
watchHistories()
watchSelectorCaches()
installFlowRepair()
// A stopped worker is woken by an alarm while a run is in flight, and resumes it (src/background/wake.ts).
watchRunsForWake(resumeRuns)
watchFirstRun()
// A closed tab's questions can never be answered: each closes as a no (docs/architecture.md, "Questions").
watchQuestionTabs()
// Files pages download during a run, once the person allowed Ava to see downloads (docs/agent.md, "Files the page hands over").
watchDownloads(liveRuns)
// Schedules: their alarms, and what fell due while the browser was closed (src/background/schedules.ts).
watchSchedules()

browser.commands.onCommand.addListener(async (command, tab) => {
  if (command !== 'open-panel' || tab?.id === undefined) return
  await sendToTab(tab.id, 'bg→content:panel.open', {}).catch(() => undefined)
})

void resumeRuns()
// MCP clients in this browser, when `ava mcp install` registered the native host (docs/mcp.md).
startMcpBridge()
