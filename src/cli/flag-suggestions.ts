import type { Command } from 'commander'
import { closest } from '../core/closest.ts'

/**
 * The long flag an unknown one most likely meant: the closest by edit
 * distance (the core's one "did you mean"), else a flag it begins with or
 * that begins with it (`--minimum` → `--min`, `--max` → `--max-size`) when
 * only one does; `undefined` when none is close.
 *
 * @example
 * flagMeant('--minimum', ['--min', '--json']) // '--min'
 * flagMeant('--jsn', ['--min', '--json']) // '--json'
 */
export function flagMeant(flag: string, known: readonly string[]): string | undefined {
  const name = flag.replace(/^--/, '').split('=')[0] ?? ''
  const names = known.map((long) => long.replace(/^--/, ''))
  const near = closest(name, names)
  if (near !== undefined) return `--${near}`
  if (name.length < 3) return undefined
  const prefixed = names.filter((known) => known.length >= 3 && (name.startsWith(known) || known.startsWith(name)))
  return prefixed.length === 1 ? `--${prefixed[0]}` : undefined
}

/** Commander's "unknown option" error, with its own suggestion line when it has one. */
const unknownOption = /^error: unknown option '([^']+)'(?:\n\(Did you mean [^)]*\))?\n?$/

/**
 * Gives this command and every subcommand added so far one line for an
 * unknown option, with a "did you mean" wherever a flag is close:
 * `error: unknown option '--minimum' (did you mean --min?)`. Through
 * commander's public `configureOutput`; other errors pass unchanged.
 *
 * @example
 * suggestFlags(program)
 */
export function suggestFlags(command: Command): Command {
  const { outputError } = command.configureOutput()
  command.configureOutput({
    outputError: (text, write) => {
      const flag = unknownOption.exec(text)?.[1]
      const known = [...command.options.flatMap(({ long }) => (long ? [long] : [])), '--help']
      const meant = flag === undefined ? undefined : flagMeant(flag, known)
      const line =
        flag === undefined ? text : `error: unknown option '${flag}'${meant ? ` (did you mean ${meant}?)` : ''}\n`
      if (outputError) outputError(line, write)
      else write(line)
    },
  })
  for (const subcommand of command.commands) suggestFlags(subcommand)
  return command
}
