// @ts-check
/**
 * The sandbox inspector's page script: watches one tenant through
 * `GET /__sandbox/events` (server-sent events read with fetch, so that the
 * token travels in the `Authorization` header and never in a URL). The token
 * comes from the form or the URL fragment (`#token=…`, which browsers never
 * send), is kept in this tab's sessionStorage and removed from the address
 * bar; a `#token=` link opened in a tab already showing the page switches to
 * it. With a busy tenant the page stays responsive: rows are added once per
 * animation frame and at most {@link maxRows} are kept. In a background tab
 * (no animation frames) the waiting exchanges stay bounded too: at most
 * {@link maxRows} wait, and a timer shows them when no frame comes.
 */

/** Rows the live table keeps; older ones are removed. */
const maxRows = 200
/** How long exchanges wait for an animation frame before a timer shows them (background tabs get none). */
const frameFallbackMs = 500
const tokenKey = 'plant-store-inspector-token'

/**
 * @typedef {{ id: string, at: string, operation: string | null,
 *   request: { method: string, path: string, query: string },
 *   response: { status: number, fault?: string } }} Exchange
 * @typedef {{ id: number, name: string, tag?: string }} Plant
 * @typedef {{ id: string, method?: string, path?: string, status?: number, fault?: string, delayMs?: number,
 *   times?: number, remaining?: number, expiresAt?: string, fired: number, active: boolean }} Rule
 */

/**
 * @template {Element} T
 * @param {string} selector
 * @param {new () => T} type
 * @returns {T}
 */
function element(selector, type) {
  const found = document.querySelector(selector)
  if (!(found instanceof type)) throw new Error(`The page has no ${selector}.`)
  return found
}

const form = element('#connect', HTMLFormElement)
const tokenField = element('#token', HTMLInputElement)
const state = element('#state', HTMLElement)
const tenantName = element('#tenant', HTMLElement)
const plantsList = element('#plants', HTMLOListElement)
const plantsCount = element('#plants-count', HTMLElement)
const faultsBody = element('#faults tbody', HTMLTableSectionElement)
const faultsEmpty = element('#faults-empty', HTMLElement)
const faultsTable = element('#faults', HTMLTableElement)
const tail = element('#tail tbody', HTMLTableSectionElement)
const tailCount = element('#tail-count', HTMLElement)
const skippedNote = element('#skipped', HTMLElement)

/** @type {AbortController | undefined} */
let watching
/** @type {Exchange[]} */
let pending = []
/** Whether a frame is already asked for to show what arrived. */
let framing = false
/** @type {ReturnType<typeof setTimeout> | undefined} */
let frameFallback
let received = 0
let skipped = 0

/** @param {'idle' | 'connecting' | 'live' | 'error' | 'gone'} name @param {string} text */
function setState(name, text) {
  state.dataset.state = name
  state.textContent = text
}

/** @param {string} tag @param {string} text @param {string} [className] */
function cell(tag, text, className) {
  const node = document.createElement(tag)
  node.textContent = text
  if (className) node.className = className
  return node
}

/** @param {{ count: number, plants: Plant[] }} data */
function showPlants({ count, plants }) {
  plantsCount.textContent =
    plants.length < count ? `${count} plants (the first ${plants.length} shown)` : `${count} plants`
  plantsList.replaceChildren(
    ...plants.map((plant) => {
      const item = cell('li', `#${plant.id} ${plant.name}`)
      if (plant.tag !== undefined) item.append(cell('span', plant.tag, 'tag'))
      return item
    }),
  )
}

/** @param {number} count `1 time`, `3 times` */
function times(count) {
  return `${count} ${count === 1 ? 'time' : 'times'}`
}

/** @param {Rule} rule */
function answerOf(rule) {
  const parts = []
  if (rule.delayMs !== undefined) parts.push(`delay ${rule.delayMs} ms`)
  if (rule.status !== undefined) parts.push(`status ${rule.status}`)
  if (rule.fault !== undefined) parts.push(`${rule.fault}`)
  return parts.join(', then ')
}

/** @param {{ faults: Rule[] }} data */
function showFaults({ faults }) {
  faultsEmpty.hidden = faults.length > 0
  faultsTable.hidden = faults.length === 0
  faultsBody.replaceChildren(
    ...faults.map((rule) => {
      const row = document.createElement('tr')
      row.dataset.rule = rule.id
      row.className = rule.active ? 'active' : 'spent'
      const left = [rule.remaining === undefined ? '' : times(rule.remaining)]
      if (rule.expiresAt !== undefined) left.push(`until ${rule.expiresAt.slice(11, 19)}`)
      row.append(
        cell('td', rule.id),
        cell('td', `${rule.method ?? 'any method'} ${rule.path ?? 'any path'}`, 'path'),
        cell('td', answerOf(rule)),
        cell('td', left.filter(Boolean).join(', ') || 'until deleted'),
        cell('td', String(rule.fired), 'fired'),
      )
      return row
    }),
  )
}

/** @param {Exchange} exchange */
function exchangeRow({ id, at, operation, request, response }) {
  const row = document.createElement('tr')
  row.className = `s${Math.floor(response.status / 100)}`
  row.dataset.id = id
  row.dataset.status = String(response.status)
  const path = request.query === '' ? request.path : `${request.path}?${request.query}`
  row.append(
    cell('td', at.slice(11, 23)),
    cell('td', id, 'id'),
    cell('td', request.method),
    cell('td', path, 'path'),
    cell('td', response.status === 0 ? `fault: ${response.fault ?? '?'}` : String(response.status), 'status'),
    cell('td', operation ?? '–'),
  )
  return row
}

/** Shows what arrived at the next animation frame, or after {@link frameFallbackMs} if no frame comes. */
function scheduleRender() {
  if (framing) return
  framing = true
  requestAnimationFrame(renderTail)
  frameFallback = setTimeout(renderTail, frameFallbackMs)
}

/** Adds the exchanges that arrived since the last render, newest first, and trims the table. */
function renderTail() {
  if (!framing) return
  framing = false
  clearTimeout(frameFallback)
  const batch = pending
  pending = []
  const rows = document.createDocumentFragment()
  for (let i = batch.length - 1; i >= 0; i--) rows.append(exchangeRow(/** @type {Exchange} */ (batch[i])))
  tail.prepend(rows)
  while (tail.rows.length > maxRows) tail.deleteRow(-1)
  tailCount.textContent = `(${received} seen, newest first)`
  skippedNote.hidden = skipped === 0
  skippedNote.textContent = `${skipped} exchanges arrived faster than the page shows them and were skipped.`
}

/** @param {string} name @param {any} data */
function onEvent(name, data) {
  switch (name) {
    case 'hello':
      tenantName.textContent = data.tenant
      setState('live', `Watching tenant ${data.tenant}.`)
      tail.replaceChildren()
      received = 0
      skipped = 0
      break
    case 'plants':
      showPlants(data)
      break
    case 'faults':
      showFaults(data)
      break
    case 'exchange':
      received++
      pending.push(data)
      // Only the newest maxRows can be shown: the others need not wait.
      if (pending.length > maxRows) pending.splice(0, pending.length - maxRows)
      scheduleRender()
      break
    case 'skipped':
      received += data.count
      skipped += data.count
      break
    case 'gone':
      setState('gone', `Tenant ${data.tenant} no longer exists (deleted, expired or evicted).`)
      sessionStorage.removeItem(tokenKey)
      break
    case 'expired':
      setState('gone', 'The token has expired; paste a current one to keep watching.')
      sessionStorage.removeItem(tokenKey)
      break
  }
}

/**
 * Reads a `text/event-stream` body, calling `onEvent` for each event.
 * @param {ReadableStream<Uint8Array>} body
 */
async function readEvents(body) {
  const reader = body.getReader()
  const decoder = new TextDecoder()
  let buffer = ''
  for (;;) {
    const { done, value } = await reader.read()
    if (done) return
    buffer += decoder.decode(value, { stream: true })
    for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n')) {
      const block = buffer.slice(0, end)
      buffer = buffer.slice(end + 2)
      let name = 'message'
      let data = ''
      for (const line of block.split('\n')) {
        if (line.startsWith('event: ')) name = line.slice(7)
        else if (line.startsWith('data: ')) data += line.slice(6)
      }
      if (data !== '') onEvent(name, JSON.parse(data))
    }
  }
}

/**
 * Opens the tenant's stream and keeps it open (reconnecting after a drop) until another token is watched.
 * @param {string} token
 */
async function watch(token) {
  watching?.abort()
  const controller = new AbortController()
  watching = controller
  sessionStorage.setItem(tokenKey, token)
  setState('connecting', 'Connecting…')
  try {
    const response = await fetch('events', {
      headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
      cache: 'no-store',
      signal: controller.signal,
    })
    if (!response.ok || response.body === null) {
      const error = await response.json().catch(() => undefined)
      setState('error', `${response.status}: ${error?.message ?? 'the stream could not be opened.'}`)
      if (response.status === 401 || response.status === 403) sessionStorage.removeItem(tokenKey)
      return
    }
    await readEvents(response.body)
  } catch {
    if (controller.signal.aborted) return
  }
  if (controller.signal.aborted || state.dataset.state === 'gone') return
  setState('error', 'The stream was cut; reconnecting…')
  setTimeout(() => {
    if (watching === controller) void watch(token)
  }, 2000)
}

form.addEventListener('submit', (event) => {
  event.preventDefault()
  const token = tokenField.value.trim()
  tokenField.value = ''
  if (token !== '') void watch(token)
})

element('#disconnect', HTMLButtonElement).addEventListener('click', () => {
  watching?.abort()
  watching = undefined
  sessionStorage.removeItem(tokenKey)
  setState('idle', 'Not watching any tenant.')
})

/** The token of a `#token=…` fragment, removed from the address bar; `null` when there is none. */
function takeTokenFromFragment() {
  const token = new URLSearchParams(location.hash.slice(1)).get('token')
  if (token !== null) history.replaceState(null, '', `${location.pathname}${location.search}`)
  return token
}

// A `#token=` link opened in a tab already showing the page only changes the fragment.
window.addEventListener('hashchange', () => {
  const token = takeTokenFromFragment()
  if (token) void watch(token)
})

const initial = takeTokenFromFragment() ?? sessionStorage.getItem(tokenKey)
if (initial) void watch(initial)
