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
 *
 * It shows the tenant's contract coverage (operations × statuses), each
 * exchange in full on a click, and, to a token with `plants:write` (the
 * `hello` event names the token's scopes), controls that go through the
 * admin API with the same token: add and remove fault rules, clear the
 * journal, reset the tenant.
 */

/** Rows the live table keeps; older ones are removed. */
const maxRows = 200
/** How long exchanges wait for an animation frame before a timer shows them (background tabs get none). */
const frameFallbackMs = 500
const tokenKey = 'plant-store-inspector-token'

/**
 * @typedef {{ id: string, at: string, operation: string | null,
 *   request: { method: string, path: string, query: string, headers: Record<string, string>, body: string | null },
 *   response: { status: number, fault?: string, headers: Record<string, string>, body: string | null } }} Exchange
 * @typedef {{ condition: string, hits: number }} Condition
 * @typedef {{ operationId: string, method: string, path: string,
 *   responses: { status: number, hits: number, conditions?: Condition[] }[] }} CoveredOperation
 * @typedef {{ answer: string, hits: number }} Extra
 * @typedef {{ covered: number, total: number, percent: number, operations: CoveredOperation[],
 *   undocumented: Extra[], unrouted: Extra[] }} Coverage
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
const coverageTable = element('#coverage', HTMLTableElement)
const coverageHead = element('#coverage thead tr', HTMLTableRowElement)
const coverageBody = element('#coverage tbody', HTMLTableSectionElement)
const coverageSummary = element('#coverage-summary', HTMLElement)
const coverageEmpty = element('#coverage-empty', HTMLElement)
const coverageExtra = element('#coverage-extra', HTMLElement)
const faultForm = element('#add-fault', HTMLFormElement)
const controlError = element('#control-error', HTMLElement)
const dialog = element('#exchange', HTMLDialogElement)

/** The exchange each row of the live table shows, for its details (rows are bounded, so is this). */
/** @type {WeakMap<HTMLTableRowElement, Exchange>} */
const exchangeOfRow = new WeakMap()
/** The token being watched: the controls send it to the admin API. */
let currentToken = ''
/** Whether the token may change the tenant (`plants:write`): the controls are shown only then. */
let writable = false

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
      if (writable) {
        const remove = cell('button', 'Remove', 'remove')
        remove.setAttribute('type', 'button')
        remove.setAttribute('aria-label', `Remove fault rule ${rule.id}`)
        remove.addEventListener('click', () => {
          void control('DELETE', `faults/${encodeURIComponent(rule.id)}`)
        })
        const action = document.createElement('td')
        action.className = 'control'
        action.append(remove)
        row.append(action)
      }
      return row
    }),
  )
}

/** @param {Exchange} exchange */
function exchangeRow({ id, at, operation, request, response }) {
  const row = document.createElement('tr')
  row.className = statusClass(response.status)
  row.dataset.id = id
  row.dataset.status = String(response.status)
  row.tabIndex = 0
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

/** The row or cell class of a status: `s2` … `s5`, `s0` for a transport fault. @param {number} status */
function statusClass(status) {
  return `s${Math.floor(status / 100)}`
}

/**
 * The coverage grid: one row per operation, one column per status any operation declares; a cell a status
 * does not declare is empty. Conditions (401 missing / invalid / expired token…) show on hover and under the count.
 * @param {Coverage} report
 */
function showCoverage(report) {
  const statuses = [...new Set(report.operations.flatMap(({ responses }) => responses.map(({ status }) => status)))]
  statuses.sort((a, b) => a - b)
  coverageSummary.textContent = `(${report.covered} of ${report.total} answers, ${report.percent}%)`
  coverageEmpty.hidden = true
  coverageTable.hidden = false
  coverageHead.replaceChildren(cell('th', 'Operation'), ...statuses.map((status) => cell('th', String(status))))
  coverageBody.replaceChildren(
    ...report.operations.map(({ operationId, method, path, responses }) => {
      const row = document.createElement('tr')
      row.dataset.operation = operationId
      const name = cell('th', `${method} ${path}`)
      name.setAttribute('scope', 'row')
      name.title = operationId
      row.append(name)
      for (const status of statuses) {
        const declared = responses.find((response) => response.status === status)
        if (!declared) {
          row.append(cell('td', '', 'undeclared'))
          continue
        }
        const td = cell('td', String(declared.hits), `${declared.hits > 0 ? 'hit' : 'miss'} ${statusClass(status)}`)
        td.dataset.status = String(status)
        td.dataset.hits = String(declared.hits)
        const lines = [`${operationId} → ${status}: ${times(declared.hits)}`]
        const seen = (declared.conditions ?? []).filter(({ hits }) => hits > 0)
        for (const { condition, hits } of declared.conditions ?? []) lines.push(`  ${condition}: ${hits}`)
        td.title = lines.join('\n')
        if (seen.length > 0) {
          const causes = cell('small', seen.map(({ condition, hits }) => `${condition} ${hits}`).join(' · '))
          td.append(causes)
        }
        row.append(td)
      }
      return row
    }),
  )
  const extras = [...report.undocumented, ...report.unrouted]
  coverageExtra.hidden = extras.length === 0
  coverageExtra.textContent = `Outside the contract: ${extras.map(({ answer, hits }) => `${answer} ×${hits}`).join(', ')}`
}

/** @param {HTMLTableSectionElement} body @param {Record<string, string>} headers */
function showHeaders(body, headers) {
  const names = Object.keys(headers)
  body.replaceChildren(
    ...(names.length === 0
      ? [
          (() => {
            const row = document.createElement('tr')
            row.append(cell('td', '(none)'))
            return row
          })(),
        ]
      : names.map((name) => {
          const row = document.createElement('tr')
          row.append(cell('th', name), cell('td', headers[name] ?? ''))
          return row
        })),
  )
}

/** A body as text, indented when it is JSON; a line saying so when there is none. @param {string | null} body */
function bodyText(body) {
  if (body === null || body === '') return '(no body)'
  try {
    return JSON.stringify(JSON.parse(body), null, 2)
  } catch {
    return body
  }
}

/** Opens the exchange in full: request and response headers and bodies, as the journal keeps them. @param {Exchange} exchange */
function showExchange({ id, at, operation, request, response }) {
  const path = request.query === '' ? request.path : `${request.path}?${request.query}`
  element('#exchange-title', HTMLElement).textContent = `${request.method} ${path}`
  element('#exchange-meta', HTMLElement).textContent = `Request id ${id} · ${at} · operation ${operation ?? 'none'}`
  element('#request-line', HTMLElement).textContent = `${request.method} ${path}`
  showHeaders(element('#request-headers tbody', HTMLTableSectionElement), request.headers)
  element('#request-body', HTMLElement).textContent = bodyText(request.body)
  const line = element('#response-line', HTMLElement)
  line.textContent =
    response.status === 0 ? `No answer: the transport failed (${response.fault ?? 'fault'})` : `${response.status}`
  line.className = `line ${statusClass(response.status)}`
  showHeaders(element('#response-headers tbody', HTMLTableSectionElement), response.headers)
  element('#response-body', HTMLElement).textContent = bodyText(response.body)
  dialog.dataset.id = id
  if (!dialog.open) dialog.showModal()
}

/** @param {string} text */
function showControlError(text) {
  controlError.hidden = text === ''
  controlError.textContent = text
}

/** Forgets the rows shown: the journal was cleared (or the tenant reset). */
function clearTail() {
  pending = []
  received = 0
  skipped = 0
  tail.replaceChildren()
  tailCount.textContent = ''
  skippedNote.hidden = true
}

/**
 * Calls the admin API with the watched token; shows the server's Error message when it refuses.
 * @param {string} method @param {string} path @param {unknown} [body]
 * @returns {Promise<Response | undefined>} the answer when it succeeded
 */
async function control(method, path, body) {
  showControlError('')
  /** @type {Record<string, string>} */
  const headers = { authorization: `Bearer ${currentToken}` }
  if (body !== undefined) headers['content-type'] = 'application/json'
  try {
    const response = await fetch(path, {
      method,
      headers,
      cache: 'no-store',
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
    if (response.ok) return response
    const error = await response.json().catch(() => undefined)
    showControlError(`${response.status}: ${error?.message ?? 'the sandbox refused.'}`)
  } catch {
    showControlError('The sandbox could not be reached.')
  }
  return undefined
}

/** Asks for the tenant's coverage again (after the journal was cleared: the stream sends it on the next exchange). */
async function refreshCoverage() {
  const response = await control('GET', 'coverage')
  if (response) showCoverage(await response.json())
}

/** Shows the controls only to a token that may change the tenant. @param {readonly string[]} scopes */
function setWritable(scopes) {
  writable = scopes.includes('plants:write')
  for (const node of document.querySelectorAll('.control')) if (node instanceof HTMLElement) node.hidden = !writable
  showControlError('')
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
  for (let i = batch.length - 1; i >= 0; i--) {
    const exchange = /** @type {Exchange} */ (batch[i])
    const row = exchangeRow(exchange)
    exchangeOfRow.set(row, exchange)
    rows.append(row)
  }
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
      setWritable(data.scopes ?? [])
      setState('live', `Watching tenant ${data.tenant}${writable ? '' : ' (read-only token: no controls)'}.`)
      clearTail()
      break
    case 'coverage':
      showCoverage(data)
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
    case 'released':
      // This replica handed the tenant over: the stream ends and the page reconnects to whichever serves it now.
      setState('error', `Tenant ${data.tenant} moved to another replica; reconnecting…`)
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
  currentToken = token
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
  currentToken = ''
  setWritable([])
  sessionStorage.removeItem(tokenKey)
  setState('idle', 'Not watching any tenant.')
})

tail.addEventListener('click', (event) => {
  const row = event.target instanceof Element ? event.target.closest('tr') : null
  const exchange = row && exchangeOfRow.get(row)
  if (exchange) showExchange(exchange)
})
tail.addEventListener('keydown', (event) => {
  const row = event.target instanceof HTMLTableRowElement ? event.target : null
  const exchange = row && exchangeOfRow.get(row)
  if (exchange && (event.key === 'Enter' || event.key === ' ')) {
    event.preventDefault()
    showExchange(exchange)
  }
})
element('#exchange-close', HTMLButtonElement).addEventListener('click', () => dialog.close())
// A click on the backdrop (outside the dialog's box) closes it too.
dialog.addEventListener('click', (event) => {
  if (event.target === dialog) {
    const box = dialog.getBoundingClientRect()
    const inside =
      event.clientX >= box.left && event.clientX <= box.right && event.clientY >= box.top && event.clientY <= box.bottom
    if (!inside) dialog.close()
  }
})

/** A form field as the rule's JSON wants it: left out when empty, a number when it reads as one, else as typed. */
function ruleField(/** @type {FormDataEntryValue | null} */ value, /** @type {boolean} */ numeric) {
  const text = typeof value === 'string' ? value.trim() : ''
  if (text === '') return undefined
  return numeric && /^-?\d+$/.test(text) ? Number(text) : text
}

faultForm.addEventListener('submit', async (event) => {
  event.preventDefault()
  const fields = new FormData(faultForm)
  /** @type {Record<string, unknown>} */
  const rule = {}
  for (const [name, numeric] of /** @type {const} */ ([
    ['method', false],
    ['path', false],
    ['status', true],
    ['times', true],
  ])) {
    const value = ruleField(fields.get(name), numeric)
    if (value !== undefined) rule[name] = value
  }
  // The server checks the rule and says what is wrong with it (400); the stream shows the new rule.
  if (await control('POST', 'faults', rule)) faultForm.reset()
})

element('#clear-journal', HTMLButtonElement).addEventListener('click', async () => {
  if (await control('DELETE', 'requests')) {
    clearTail()
    await refreshCoverage()
  }
})

element('#reset', HTMLButtonElement).addEventListener('click', async () => {
  // The stream sends the seeded plants and the emptied coverage; the journal was forgotten with them.
  if (await control('POST', 'reset')) clearTail()
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
