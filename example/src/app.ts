import { type NewPlant, type Plant, PlantStoreApiError, PlantStoreClient } from 'plant-store-mock/client'

export interface AppOptions {
  /** Where the Plant Store is: `''` for this page's origin (MSW), or the sandbox's address. */
  baseUrl: string
  /** The token the field starts with; empty sends no `Authorization` header. */
  token: string
  /** Says who answers, shown under the title. */
  transport: string
}

/**
 * Wires the page: load the tenant's plants with the token in the field,
 * add a plant from the form, delete one by id, and show the API's Error
 * message for any non-2xx answer. `main[data-revision]` counts finished
 * actions, so tests can wait for one without sleeping.
 *
 * @example
 * mountApp(document.querySelector('main')!, { baseUrl: '', token: 'psm_acme_write', transport: 'MSW' })
 */
export function mountApp(root: HTMLElement, options: AppOptions): void {
  const tokenField = element(root, '#token', HTMLInputElement)
  const plantList = element(root, '#plants', HTMLUListElement)
  const status = element(root, '#status', HTMLElement)
  const errorBox = element(root, '#error', HTMLElement)
  const createForm = element(root, '#create', HTMLFormElement)
  const deleteForm = element(root, '#delete', HTMLFormElement)

  element(root, '#transport', HTMLElement).textContent = `Answered by ${options.transport}.`
  tokenField.value = options.token
  const client = new PlantStoreClient({ baseUrl: options.baseUrl, token: () => tokenField.value.trim() || undefined })

  const run = async (action: () => Promise<string>): Promise<void> => {
    errorBox.hidden = true
    try {
      status.textContent = await action()
    } catch (error) {
      status.textContent = ''
      showError(errorBox, error)
    } finally {
      root.dataset.revision = String(Number(root.dataset.revision ?? '0') + 1)
    }
  }

  const refresh = async (): Promise<Plant[]> => {
    const plants = await client.listPlants().catch((error: unknown) => {
      renderPlants(plantList, []) // never leave another token's plants on screen
      throw error
    })
    renderPlants(plantList, plants)
    return plants
  }

  element(root, '#session', HTMLFormElement).addEventListener('submit', (event) => {
    event.preventDefault()
    void run(async () => `${(await refresh()).length} plants.`)
  })

  createForm.addEventListener('submit', (event) => {
    event.preventDefault()
    const fields = new FormData(createForm)
    const idText = text(fields, 'id').trim()
    const tag = text(fields, 'tag')
    // The form sends what was typed; the API validates it, and its 400 names the field.
    const plant = {
      id: idText === '' ? undefined : Number(idText),
      name: text(fields, 'name'),
      ...(tag === '' ? {} : { tag }),
    } as NewPlant
    void run(async () => {
      const created = await client.addPlant(plant)
      createForm.reset()
      await refresh()
      return `Added ${created.name}.`
    })
  })

  deleteForm.addEventListener('submit', (event) => {
    event.preventDefault()
    const idText = text(new FormData(deleteForm), 'id').trim()
    const id = idText === '' ? Number.NaN : Number(idText)
    void run(async () => {
      await client.deletePlant(id)
      deleteForm.reset()
      await refresh()
      return `Deleted plant ${idText}.`
    })
  })

  void run(async () => `${(await refresh()).length} plants.`)
}

function renderPlants(list: HTMLUListElement, plants: readonly Plant[]): void {
  list.replaceChildren(
    ...plants.map((plant) => {
      const item = document.createElement('li')
      item.dataset.name = plant.name
      item.append(plant.name)
      if (plant.tag !== undefined) {
        item.dataset.tag = plant.tag
        const tag = document.createElement('span')
        tag.className = 'tag'
        tag.textContent = plant.tag
        item.append(tag)
      }
      return item
    }),
  )
}

function showError(box: HTMLElement, error: unknown): void {
  const apiError = error instanceof PlantStoreApiError ? error : undefined
  element(box, '#error-status', HTMLElement).textContent = apiError ? String(apiError.status) : 'Network error'
  element(box, '#error-message', HTMLElement).textContent = apiError
    ? apiError.message
    : `Could not reach the Plant Store (${error instanceof Error ? error.message : String(error)}).`
  box.dataset.status = apiError ? String(apiError.status) : ''
  box.hidden = false
}

/**
 * The page's element for a selector, of the expected type, or an Error naming what is missing.
 *
 * @example
 * element(document, '#token', HTMLInputElement).value
 */
export function element<T extends Element>(root: ParentNode, selector: string, type: abstract new () => T): T {
  const found = root.querySelector(selector)
  if (!(found instanceof type)) throw new Error(`The page has no ${selector}.`)
  return found
}

function text(fields: FormData, name: string): string {
  const value = fields.get(name)
  return typeof value === 'string' ? value : ''
}
