#!/usr/bin/env node
/**
 * `plant-store-mock`: serves the Plant Store sandbox. Every flag has an
 * environment variable; `--help` lists them. Bad flags exit with code 2.
 * This entry only turns on Node's on-disk compile cache (faster starts after
 * the first), then runs the CLI.
 */
import { enableCompileCache } from 'node:module'

enableCompileCache?.()
const { main } = await import('./cli/main.ts')
process.exit(await main(process.argv))
