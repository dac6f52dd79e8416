/**
 * `--state-file` under what issue 35 tried (F3, F4, F9, F10, F11), against the
 * built bin (dist/sandbox/cli.js) over HTTP: a full disk (a real 2 MiB tmpfs)
 * answers 503 and loses no acknowledged write; a second sandbox on the same
 * file is refused; a state file through a link stays a link; a link planted
 * at the old temporary name is not followed; a hostile file is refused with
 * one line. Mounting needs root (CI runs as root): a failed mount fails the test.
 */
import { spawnSync } from 'node:child_process'
import { lstat, mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { type RunningCli, startCommand } from '../reliability/cli.ts'

const root = fileURLToPath(new URL('../..', import.meta.url))
const bin = join(root, 'dist/sandbox/cli.js')
let directory: string
const mounted: string[] = []

beforeAll(async () => {
  const built = spawnSync('npm', ['run', 'build:sandbox', '--silent'], { cwd: root, encoding: 'utf8' })
  expect(built.status, built.stderr).toBe(0)
  directory = await mkdtemp(join(tmpdir(), 'plant-store-state-hardening-'))
}, 60_000)
afterAll(async () => {
  for (const folder of mounted) spawnSync('umount', ['-l', folder])
  await rm(directory, { recursive: true, force: true })
})

/** Starts the built bin with a state file. */
function startBin(stateFile: string, args: readonly string[] = []): Promise<RunningCli> {
  return startCommand(process.execPath, [
    bin,
    ...['--host', '127.0.0.1', '--port', '0', '--log-level', 'warn', '--state-file', stateFile, ...args],
  ])
}

/** Runs the bin to its end (a start that must be refused). */
function runBin(stateFile: string, args: readonly string[] = []) {
  return spawnSync(process.execPath, [bin, '--port', '0', '--state-file', stateFile, ...args], {
    encoding: 'utf8',
    timeout: 60_000,
  })
}

const writeHeaders = { authorization: 'Bearer psm_acme_write', 'content-type': 'application/json' }

/** A plant near as long as a plant may be: 250 four-byte characters in its name and its tag (~2 KB a record). */
const bigPlant = (id: number) => JSON.stringify({ id, name: `${id} ${'🌿'.repeat(250)}`, tag: '🌱'.repeat(250) })

/** Acme's plant ids, through the admin API. */
async function acmeIds(url: string): Promise<Set<number>> {
  const answer = await fetch(`${url}/__sandbox/plants`, { headers: { authorization: 'Bearer psm_acme_read' } })
  expect(answer.status).toBe(200)
  const { plants } = (await answer.json()) as { plants: Array<{ id: number }> }
  return new Set(plants.map(({ id }) => id))
}

/** Creates plants `from`… on `workers` connections; the statuses by id. */
async function createPlants(url: string, from: number, count: number, workers = 8): Promise<Map<number, number>> {
  const statuses = new Map<number, number>()
  let next = from
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (next < from + count) {
        const id = next++
        const answer = await fetch(`${url}/plants`, { method: 'POST', headers: writeHeaders, body: bigPlant(id) })
        if (answer.status !== 200) {
          expect(answer.headers.get('content-type')).toContain('application/json')
          expect(await answer.json()).toHaveProperty('message')
        } else await answer.body?.cancel()
        statuses.set(id, answer.status)
      }
    }),
  )
  return statuses
}

/** A real file system of `size`, mounted in a new folder (fails the test when it cannot be mounted). */
async function smallFileSystem(size: string): Promise<string> {
  const folder = await mkdtemp(join(directory, 'tmpfs-'))
  const mount = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', folder], { encoding: 'utf8' })
  expect(mount.status, `mount -t tmpfs needs root: ${mount.stderr}`).toBe(0)
  mounted.push(folder)
  return folder
}

describe('a full disk (F3)', () => {
  test('writes the disk cannot take answer 503, none acknowledged is lost, and the restart has every one', async () => {
    const disk = await smallFileSystem('2m')
    const stateFile = join(disk, 'state.jsonl')
    // Half the disk taken by something else: what is left fills within the 700 creates.
    const filler = join(disk, 'filler')
    await writeFile(filler, Buffer.alloc(1 << 20))
    const first = await startBin(stateFile)
    let acknowledged: number[] = []
    try {
      // 700 creates of ~2 KB each (1.4 MB), compactions among them: more than the disk holds.
      const statuses = await createPlants(first.url, 10_000, 700)
      acknowledged = [...statuses].filter(([, status]) => status === 200).map(([id]) => id)
      const refused = [...statuses.values()].filter((status) => status !== 200)
      expect(new Set(refused)).toEqual(new Set([503]))
      expect(acknowledged.length).toBeGreaterThan(100)
      expect(refused.length).toBeGreaterThan(100)
      // Memory holds what the file holds: a refused create is not there.
      const held = await acmeIds(first.url)
      expect(acknowledged.filter((id) => !held.has(id))).toEqual([])
      expect([...statuses].filter(([id, status]) => status !== 200 && held.has(id))).toEqual([])
      // Reads go on; once there is room again, so do writes (without a restart).
      const list = await fetch(`${first.url}/plants?limit=1`, { headers: { authorization: 'Bearer psm_acme_read' } })
      expect(list.status).toBe(200)
      await list.body?.cancel()
      // A compaction the disk could not take failed, left no file behind, and the log stayed in use.
      expect(first.output()).toMatch(/compacting .*state\.jsonl failed: ENOSPC/)
      expect((await readdir(disk)).sort()).toEqual(['filler', 'state.jsonl', 'state.jsonl.lock'])
      await rm(filler)
      const later = await createPlants(first.url, 20_000, 20, 1)
      expect(new Set(later.values())).toEqual(new Set([200]))
      acknowledged.push(...later.keys())
    } finally {
      first.child.kill('SIGKILL')
      await first.stop()
    }
    const second = await startBin(stateFile)
    try {
      const held = await acmeIds(second.url)
      expect(acknowledged.filter((id) => !held.has(id))).toEqual([])
    } finally {
      expect(await second.stop()).toBe(0)
    }
  }, 120_000)
})

describe('one sandbox per state file (F4)', () => {
  test('a second sandbox on the same file (also through a link) gets one line and exit code 2; after a kill -9 it starts', async () => {
    const stateFile = join(directory, 'shared.jsonl')
    const link = join(directory, 'shared-link.jsonl')
    await symlink(stateFile, link)
    const first = await startBin(stateFile)
    try {
      for (const path of [stateFile, link]) {
        const second = runBin(path)
        expect(second.status).toBe(2)
        expect(second.stderr.trim().split('\n')).toHaveLength(1)
        expect(second.stderr).toContain(`another sandbox (pid ${first.child.pid}) is using it`)
      }
      const created = await fetch(`${first.url}/plants`, {
        method: 'POST',
        headers: writeHeaders,
        body: bigPlant(1_000),
      })
      expect(created.status).toBe(200)
    } finally {
      first.child.kill('SIGKILL')
      await first.stop()
    }
    // The lock of a process that is gone is stale: taken over at once.
    const third = await startBin(stateFile)
    try {
      expect((await acmeIds(third.url)).has(1_000)).toBe(true)
    } finally {
      expect(await third.stop()).toBe(0)
    }
    await expect(stat(`${stateFile}.lock`)).rejects.toThrow('ENOENT')
  }, 60_000)
  test('a lock left by a process that is gone, or whose pid another process took since, is taken over', async () => {
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' })
    const holders = [
      { pid: Number(gone.stdout), started: '1' }, // gone
      { pid: process.pid, started: '1' }, // alive, but not the process that took the lock (it started at another time)
    ]
    for (const [index, holder] of holders.entries()) {
      const stateFile = join(directory, `stale-${index}.jsonl`)
      await writeFile(`${stateFile}.lock`, `${JSON.stringify(holder)}\n`)
      const sandbox = await startBin(stateFile)
      try {
        expect(JSON.parse(await readFile(`${stateFile}.lock`, 'utf8'))).toMatchObject({ pid: sandbox.child.pid })
      } finally {
        expect(await sandbox.stop()).toBe(0)
      }
    }
  }, 30_000)
})

describe('a state file through a link (F9, F10)', () => {
  test('compaction writes beside the real file: the link stays a link and every write is kept', async () => {
    const real = join(directory, 'real')
    await mkdir(real)
    const stateFile = join(real, 'state.jsonl')
    const link = join(directory, 'linked-state.jsonl')
    await symlink(stateFile, link)
    const first = await startBin(link)
    // What the old code opened with 'w': a link planted at `.<name>.<pid>.tmp` beside the path given.
    const victim = join(directory, 'victim.txt')
    await writeFile(victim, 'not the state\n')
    await symlink(victim, join(directory, `.linked-state.jsonl.${first.child.pid}.tmp`))
    await symlink(victim, join(real, `.state.jsonl.${first.child.pid}.tmp`))
    let statuses: Map<number, number>
    try {
      // ~2 KB a record: 400 creates pass the 256 KiB that start a compaction.
      statuses = await createPlants(first.url, 20_000, 400)
      expect(new Set(statuses.values())).toEqual(new Set([200]))
    } finally {
      expect(await first.stop()).toBe(0) // compacts once more
    }
    expect((await lstat(link)).isSymbolicLink()).toBe(true)
    expect((await stat(stateFile)).mode & 0o777).toBe(0o600)
    expect(await readFile(victim, 'utf8')).toBe('not the state\n')
    const second = await startBin(link)
    try {
      const held = await acmeIds(second.url)
      expect([...statuses.keys()].filter((id) => !held.has(id))).toEqual([])
    } finally {
      expect(await second.stop()).toBe(0)
    }
  }, 60_000)
})

describe('a hostile or damaged state file (F11)', () => {
  const header = `${JSON.stringify({ format: 'plant-store-mock/state', version: 2, savedAt: '2026-11-28T00:00:00.000Z' })}\n`
  const tenant = (plants: number) =>
    `${JSON.stringify({
      t: 'tenant',
      tenant: { id: 'huge', name: 'Huge', seed: 1, plants, users: [] },
      provisioned: false,
      listed: false,
    })}\n`

  test('a seeded count of 50,000,000 is refused with one line and exit code 2, the file untouched', async () => {
    const stateFile = join(directory, 'seeded.jsonl')
    const text = `${header}${tenant(50_000_000)}`
    expect(Buffer.byteLength(text)).toBeLessThan(250)
    await writeFile(stateFile, text)
    const child = runBin(stateFile)
    expect(child.status).toBe(2)
    expect(child.stderr.trim().split('\n')).toHaveLength(1)
    expect(child.stderr).toContain('line 2: tenant "huge" starts with 50,000,000 plants, beyond the 10,000,000')
    expect(await readFile(stateFile, 'utf8')).toBe(text)
  })

  test('plants beyond --plant-bytes-total are refused before they are made', async () => {
    const stateFile = join(directory, 'budget.jsonl')
    await writeFile(stateFile, `${header}${tenant(10_000)}`)
    const child = runBin(stateFile, ['--plant-bytes-total', '1MiB'])
    expect(child.status).toBe(2)
    expect(child.stderr.trim().split('\n')).toHaveLength(1)
    expect(child.stderr).toContain('beyond the 1 MiB the sandbox')
  })

  test('a line longer than 16 MiB is refused unread, exit code 2', async () => {
    const stateFile = join(directory, 'long-line.jsonl')
    const long = `{"t":"create","tenant":"acme","plant":{"id":1,"name":"${'x'.repeat(17 << 20)}"}}\n`
    await writeFile(stateFile, `${header}${long}`)
    const child = runBin(stateFile)
    expect(child.status).toBe(2)
    expect(child.stderr.trim().split('\n')).toHaveLength(1)
    expect(child.stderr).toContain('line 2 is longer than 16 MiB')
    expect((await stat(stateFile)).size).toBe(Buffer.byteLength(header) + long.length)
  })

  test('whole lines of garbage at the end are damage, not a torn record: refused, exit code 1, the file untouched', async () => {
    const stateFile = join(directory, 'garbage.jsonl')
    const first = await startBin(stateFile)
    expect(await first.stop()).toBe(0)
    const text = `${await readFile(stateFile, 'utf8')}garbage\nmore garbage\n\u0000\u0000\n`
    await writeFile(stateFile, text)
    const child = runBin(stateFile)
    expect(child.status).toBe(1)
    expect(child.stderr.trim().split('\n')).toHaveLength(1)
    expect(child.stderr).toMatch(/garbage\.jsonl cannot be loaded: line \d+ is not valid JSON/)
    expect(await readFile(stateFile, 'utf8')).toBe(text)
  }, 30_000)
})
