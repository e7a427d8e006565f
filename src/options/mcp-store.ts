import { defineStore } from 'pinia'
import { ref } from 'vue'
import { send } from '../messaging'
import { failure, type Failure } from '../ui/failure'

export interface McpClientView {
  name: string
  since: number
  active: boolean
}

/** The MCP clients the person allowed (docs/mcp.md), read and revoked through the background. */
export const useMcpStore = defineStore('mcp', () => {
  const clients = ref<McpClientView[]>([])
  const loading = ref(false)
  const error = ref<Failure | null>(null)
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
  return { clients, loading, error, load, revoke }
})
