/** Starts the real CLI (`node src/cli.ts`) on a free loopback port, for fault and security tests. */
import { type ChildProcess, spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../..', import.meta.url))

export interface RunningCli {
  readonly child: ChildProcess
  readonly url: string
  /** Everything written to stdout and stderr so far. */
  output(): string
  /** Sends a signal and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>
  /** SIGKILLs the process group the command leads (started with `detached`): whatever it left behind. */
  killGroup(): void
}

/**
 * Spawns `node src/cli.ts --port 0 …args` and waits for its "listening on" line.
 *
 * @example
 * const cli = await startCli(['--state-file', path])
 */
export function startCli(args: readonly string[], env: Record<string, string> = {}): Promise<RunningCli> {
  return startCommand(process.execPath, ['src/cli.ts', '--host', '127.0.0.1', '--port', '0', ...args], env)
}

/**
 * Spawns any command that starts the sandbox, in the project folder, and
 * waits for its "listening on" line. With `detached`, the command leads a
 * process group of its own, which {@link RunningCli.killGroup} ends.
 *
 * @example
 * const sandbox = await startCommand('npm', ['start', '--', '--port', '0'], {}, { detached: true })
 */
export function startCommand(
  command: string,
  args: readonly string[],
  env: Record<string, string> = {},
  options: { detached?: boolean } = {},
): Promise<RunningCli> {
  const child = spawn(command, args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: options.detached ?? false,
  })
  let output = ''
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  const stop = (signal: NodeJS.Signals = 'SIGTERM') => {
    if (child.exitCode === null) child.kill(signal)
    const deadline = setTimeout(() => child.kill('SIGKILL'), 20_000)
    return exited.finally(() => clearTimeout(deadline))
  }
  const killGroup = () => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL')
    } catch {} // the group is gone already
  }
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`the CLI did not start: ${output}`))
    }, 20_000)
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8')
      const match = /listening on (http:\/\/\S+)/.exec(output)
      if (match?.[1]) {
        clearTimeout(timer)
        resolve({ child, url: match[1], output: () => output, stop, killGroup })
      }
    }
    child.stdout.on('data', onData)
    child.stderr.on('data', onData)
    exited.then((code) => {
      clearTimeout(timer)
      reject(new Error(`the CLI exited with ${code}: ${output}`))
    })
  })
}

/**
 * Runs the CLI to completion (for starts that must fail) and resolves with
 * its exit code and output.
 */
export function runCli(args: readonly string[]): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ['src/cli.ts', '--host', '127.0.0.1', '--port', '0', ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8')
  })
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8')
  })
  const deadline = setTimeout(() => child.kill('SIGKILL'), 20_000)
  return new Promise((resolve) =>
    child.once('exit', (code) => {
      clearTimeout(deadline)
      resolve({ code, output })
    }),
  )
}
