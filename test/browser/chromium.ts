/**
 * Which Chromium the browser tests drive. In order: `CHROMIUM_PATH`, the
 * system's `/usr/bin/chromium` (what CI installs from Debian), else the
 * Chromium shipped inside the `@sparticuz/chromium` npm package, unpacked
 * once into `node_modules/.cache/` with the libraries and fonts it brings.
 * Nothing is downloaded: `npm ci` already fetched that package's tarball.
 */
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { createReadStream, createWriteStream, existsSync } from 'node:fs'
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { pipeline } from 'node:stream/promises'
import { fileURLToPath } from 'node:url'
import { createBrotliDecompress } from 'node:zlib'
import { type Browser, chromium } from 'playwright-core'

const projectRoot = fileURLToPath(new URL('../..', import.meta.url))

/** Debian's `chromium` package installs here (`.ci/run` installs it). */
const systemChromium = '/usr/bin/chromium'

/** A Chromium to launch: where it is, where it came from, and the environment it needs. */
export interface ChromiumInstall {
  readonly executablePath: string
  /** `CHROMIUM_PATH`, `system` or `@sparticuz/chromium <version>`. */
  readonly source: string
  /** Variables the browser process needs on top of this process's environment. */
  readonly env: Readonly<Record<string, string>>
}

/**
 * Finds (and on first use unpacks) the Chromium to test with. Never gives up
 * silently: when there is none, it throws and the browser tests fail.
 *
 * @example
 * const browser = await startChromium(await findChromium())
 */
export async function findChromium(): Promise<ChromiumInstall> {
  const fromEnvironment = process.env.CHROMIUM_PATH
  if (fromEnvironment !== undefined && fromEnvironment !== '') {
    if (!existsSync(fromEnvironment)) throw new Error(`CHROMIUM_PATH=${fromEnvironment} does not exist.`)
    return { executablePath: fromEnvironment, source: 'CHROMIUM_PATH', env: {} }
  }
  if (existsSync(systemChromium)) return { executablePath: systemChromium, source: 'system', env: {} }
  return unpackPackagedChromium()
}

/**
 * `@sparticuz/chromium` ships chrome-headless-shell brotli-compressed, with
 * SwiftShader, the NSS/NSPR/expat libraries it links against (built for
 * Amazon Linux, glibc-compatible with Debian) and a font. Its own unpacker
 * writes straight into the shared temporary folder and trusts whatever it
 * finds there, so this one unpacks into a versioned folder of the project,
 * atomically (two test runs may start at once), and points the browser at
 * the bundled libraries and fonts so it needs nothing but glibc from the system.
 */
async function unpackPackagedChromium(): Promise<ChromiumInstall> {
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(
      `No Chromium for the browser tests: ${systemChromium} is missing and @sparticuz/chromium ships a Linux x64 build ` +
        `only (this is ${process.platform} ${process.arch}). Install Chromium or set CHROMIUM_PATH.`,
    )
  }
  const binDir = join(dirname(createRequire(import.meta.url).resolve('@sparticuz/chromium')), '..', 'bin')
  const { version } = JSON.parse(await readFile(join(binDir, '..', 'package.json'), 'utf8')) as { version: string }
  const target = join(projectRoot, 'node_modules', '.cache', 'plant-store-mock', `chromium-${version}`)
  const executablePath = join(target, 'chromium')
  if (!existsSync(executablePath)) {
    const scratch = `${target}.${process.pid}.partial`
    await rm(scratch, { recursive: true, force: true })
    await mkdir(scratch, { recursive: true })
    await Promise.all([
      pipeline(
        createReadStream(join(binDir, 'chromium.br')),
        createBrotliDecompress(),
        createWriteStream(join(scratch, 'chromium'), { mode: 0o755 }),
      ),
      ...['swiftshader.tar.br', 'al2023.tar.br', 'fonts.tar.br'].map((archive) =>
        untarBrotli(join(binDir, archive), scratch),
      ),
    ])
    await writeFile(join(scratch, 'fonts.conf'), fontConfig(target))
    // Another worker may have finished first: its copy is as good as ours.
    await rename(scratch, target).catch(async (error: unknown) => {
      await rm(scratch, { recursive: true, force: true })
      if (!existsSync(executablePath)) throw error
    })
  }
  return {
    executablePath,
    source: `@sparticuz/chromium ${version}`,
    env: { LD_LIBRARY_PATH: join(target, 'lib'), FONTCONFIG_FILE: join(target, 'fonts.conf') },
  }
}

/** Unpacks a `.tar.br` archive into a folder with the system's `tar` (Debian's is essential). */
async function untarBrotli(archive: string, into: string): Promise<void> {
  const tar = spawn('tar', ['-x', '-C', into], { stdio: ['pipe', 'ignore', 'inherit'] })
  const [[code]] = await Promise.all([
    once(tar, 'close') as Promise<[number | null]>,
    pipeline(createReadStream(archive), createBrotliDecompress(), tar.stdin),
  ])
  if (code !== 0) throw new Error(`tar could not unpack ${archive} (exit ${code}).`)
}

/** The bundled font first, then the system's fonts when there are any. */
function fontConfig(folder: string): string {
  return `<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig>
  <dir>${join(folder, 'fonts')}</dir>
  <dir>/usr/share/fonts</dir>
  <dir>/usr/local/share/fonts</dir>
  <cachedir>${join(folder, 'fonts-cache')}</cachedir>
</fontconfig>
`
}

/**
 * Launches a Chromium headless with a fresh profile. playwright-core itself
 * creates the profile with `mkdtemp` and passes it as `--user-data-dir`
 * (it refuses that flag in `args`), and deletes it on close.
 *
 * @example
 * const browser = await startChromium(await findChromium())
 */
export function startChromium(install: ChromiumInstall): Promise<Browser> {
  return chromium.launch({
    executablePath: install.executablePath,
    env: { ...process.env, ...install.env },
    headless: true,
    chromiumSandbox: false, // --no-sandbox
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  })
}
