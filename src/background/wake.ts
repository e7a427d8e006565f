import browser from 'webextension-polyfill'
import { isActive, type RunState } from '../core/agent/state'

/**
 * A run outlives the worker (its state is in chrome.storage.session), but a stopped worker starts
 * again only for an event: a panel that reconnects, a page that loads. With the panel closed and the
 * page idle, nothing comes, and the run would wait for the person to do something. While any run is
 * active an alarm is set, whose firing starts the worker; starting, it resumes the runs it finds
 * (index.ts `resumeRuns`). Chrome fires alarms at most every 30 s, so this is the floor, not the
 * usual path: the panel's own reconnect is quicker when the panel is open.
 */
export const kWakeAlarm = 'ava-run-wake'
const kWakePeriodMin = 0.5 // Chrome's shortest alarm period (Chrome 120+)

/** Whether any stored run is still going: `run:<tabId>` keys in chrome.storage.session. */
export function anyRunActive(all: Record<string, unknown>): boolean {
  return Object.entries(all).some(
    ([key, value]) => key.startsWith('run:') && !!value && isActive((value as RunState).status),
  )
}

async function sync(): Promise<void> {
  const active = anyRunActive(await browser.storage.session.get(null))
  const set = await browser.alarms.get(kWakeAlarm)
  if (active && !set)
    await browser.alarms.create(kWakeAlarm, { periodInMinutes: kWakePeriodMin, delayInMinutes: kWakePeriodMin })
  else if (!active && set) await browser.alarms.clear(kWakeAlarm)
}

/**
 * Keeps the alarm in step with the stored runs, and resumes them when it fires. Registered at the
 * top level of the worker, so that the alarm that woke it finds its listener.
 */
export function watchRunsForWake(resume: () => Promise<void>): void {
  browser.storage.onChanged.addListener((changes, area) => {
    if (area === 'session' && Object.keys(changes).some((k) => k.startsWith('run:'))) void sync().catch(() => undefined)
  })
  browser.alarms.onAlarm.addListener((alarm) => {
    if (alarm.name === kWakeAlarm) void resume().finally(() => sync().catch(() => undefined))
  })
}
