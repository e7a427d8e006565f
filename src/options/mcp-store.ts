import { defineStore } from 'pinia'
import { ref } from 'vue'
import { send } from '../messaging'
import type { McpClientRow } from '../messaging/protocol'
import { failure, type Failure } from '../ui/failure'

export type McpClientView = McpClientRow

/** The MCP clients the person allowed (docs/mcp.md), the sites each may go to, read and changed through the background. */
export const useMcpStore = defineStore('mcp', () => {
  const clients = ref<McpClientView[]>([])
  const loading = ref(false)
  const error = ref<Failure | null>(null)
  /** What the person last typed that names no site, said back under the client. */
  const rejected = ref<{ name: string; entries: string[] } | null>(null)
  async function load(): Promise<void> {
    loading.value = true
    try {
      clients.value = (await send('options→bg:mcp.clients', {})).clients
      error.value = null
    } catch (e) {
      error.value = failure(e)
    } finally {
      loading.value = false
    }
  }
  async function revoke(name: string): Promise<void> {
    try {
      clients.value = (await send('options→bg:mcp.revoke', { name })).clients
      error.value = null
    } catch (e) {
      error.value = failure(e)
    }
  }
  async function setSites(name: string, sites: string[]): Promise<boolean> {
    try {
      const r = await send('options→bg:mcp.sites', { name, sites })
      clients.value = r.clients
      rejected.value = r.rejected.length ? { name, entries: r.rejected } : null
      error.value = null
      return !r.rejected.length
    } catch (e) {
      error.value = failure(e)
      return false
    }
  }
  /** Widens the client's grant to the site the person typed. */
  async function addSite(name: string, entry: string): Promise<boolean> {
    const c = clients.value.find((x) => x.name === name)
    return setSites(name, [...(c?.sites ?? []), entry])
  }
  async function removeSite(name: string, site: string): Promise<void> {
    const c = clients.value.find((x) => x.name === name)
    await setSites(
      name,
      (c?.sites ?? []).filter((s) => s !== site),
    )
  }
  return { clients, loading, error, rejected, load, revoke, addSite, removeSite }
})
