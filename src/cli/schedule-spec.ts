// The options of `ava schedule`, apart from schedule.ts so that `ava --help` lists it without loading the bridge.
import type { CommandSpec } from './args'

export const kScheduleSpec: CommandSpec = {
  name: 'schedule',
  args: '<list|add|remove> [id]',
  summary: "Schedule a request, a pack action, a flow or a watch in the person's Chrome, list or remove schedules",
  options: {
    action: { type: 'string', value: '<name>', help: 'add: run this pack action (no model call)' },
    flow: { type: 'string', value: '<id>', help: 'add: replay this saved flow (no model call)' },
    request: { type: 'string', value: '<text>', help: "add: give Ava's model this request" },
    watch: { type: 'boolean', help: 'add: read the list at --url and report the rows added, removed and changed' },
    url: { type: 'string', value: '<url>', help: 'add: the page the run opens in a tab of its own' },
    target: {
      type: 'string',
      value: '<selector>',
      help: "add --watch: the list's CSS selector (default: the page's main list)",
    },
    param: { type: 'string', value: '<name=value>', multiple: true, help: 'add: an action parameter or flow variable' },
    every: { type: 'string', value: '<repeat>', help: 'add: once, daily, weekdays or hourly' },
    at: {
      type: 'string',
      value: '<when>',
      help: 'add: HH:MM (daily, weekdays), a minute 0-59 (hourly), YYYY-MM-DD HH:MM (once)',
    },
    tz: { type: 'string', value: '<zone>', help: "add: the time zone of --at (default: this computer's)" },
    missed: {
      type: 'string',
      value: '<run|skip>',
      help: 'add: a time missed while the browser was closed runs once at the next start (run, the default) or is reported skipped',
    },
    name: { type: 'string', value: '<text>', help: 'add: what the notifications call it' },
  },
  notes: `The schedule is kept and run by Ava in the person's Chrome (chrome.alarms), reached through the
native host \`ava mcp install\` registers, as \`ava mcp --chrome\` reaches it (docs/mcp.md). Its runs pass
the same guard as every step: a step that needs a yes waits for the person, who is notified.
Examples:
  ava schedule add --watch --url https://shop.example/orders --every daily --at 08:00 --tz Europe/Berlin
  ava schedule add --action shop:orders:export --url https://shop.example/ --every weekdays --at 7:30
  ava schedule list
  ava schedule remove schedule_abc123`,
}
