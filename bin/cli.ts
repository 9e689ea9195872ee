// memvault's command line: parses arguments and dispatches to one command module; exit codes are stable.
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, type Config } from '../config/load.js';

export const EXIT = { ok: 0, failure: 1, usage: 2, config: 78 } as const;

const USAGE = `memvault — a memory vault daemon for AI agents

  memvault start   --vault DIR [--config FILE] [--listen HOST:PORT]   run the daemon in the foreground
  memvault index   --vault DIR [--config FILE]                        index everything once, then exit
  memvault search  [--vault DIR] [--json] [-k N] [--mode hybrid|bm25|vector] QUERY
  memvault status  [--vault DIR] [--json] [--files]
  memvault reindex [--vault DIR] [--config FILE]                      rebuild the index with the configured model
  memvault doctor  [--vault DIR] [--config FILE]                      check vault, model, sqlite-vec, config
  memvault mcp     --vault DIR [--config FILE] [--agent NAME]         MCP over stdio (uses the running daemon, or starts one)

Environment: MEMVAULT_LISTEN (HOST:PORT), MEMVAULT_DATA_DIR (default <vault>/.memvault).`;

export interface Args {
  vault?: string;
  config?: string;
  listen?: string;
  json: boolean;
  files: boolean;
  k?: number;
  mode?: string;
  agent?: string;
  rest: string[];
}

function parse(argv: string[]): Args {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      vault: { type: 'string' },
      config: { type: 'string' },
      listen: { type: 'string' },
      json: { type: 'boolean', default: false },
      files: { type: 'boolean', default: false },
      k: { type: 'string', short: 'k' },
      mode: { type: 'string' },
      agent: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) throw new UsageError('');
  let k: number | undefined;
  if (values.k !== undefined) {
    k = Number(values.k);
    if (!Number.isInteger(k) || k < 1) throw new UsageError('-k must be a positive integer');
  }
  if (values.mode !== undefined && !['hybrid', 'bm25', 'vector'].includes(values.mode))
    throw new UsageError('--mode must be hybrid, bm25 or vector');
  return { vault: values.vault, config: values.config, listen: values.listen, json: values.json ?? false, files: values.files ?? false, k, mode: values.mode, agent: values.agent, rest: positionals };
}

export class UsageError extends Error {}

/** Settings for a command: `--vault` (or the config's `vault`, or the current folder for read-only commands). */
export function configFor(a: Args, opts: { vaultRequired: boolean }): Config {
  if (opts.vaultRequired && !a.vault && !a.config) throw new UsageError('--vault DIR is required');
  return loadConfig({ file: a.config ?? null, vault: a.vault ?? (a.config ? undefined : process.cwd()), listen: a.listen });
}

export async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  let code: number = EXIT.ok;
  try {
    if (!command || command === 'help' || command === '--help' || command === '-h') {
      process.stdout.write(USAGE + '\n');
      return;
    }
    const a = parse(rest);
    switch (command) {
      case 'start':
        code = await (await import('./commands/start.js')).start(a);
        break;
      case 'index':
        code = await (await import('./commands/index-once.js')).indexOnce(a);
        break;
      case 'search':
        code = await (await import('./commands/search.js')).searchCommand(a);
        break;
      case 'status':
        code = await (await import('./commands/status.js')).statusCommand(a);
        break;
      case 'reindex':
        code = await (await import('./commands/reindex.js')).reindexCommand(a);
        break;
      case 'doctor':
        code = await (await import('./commands/doctor.js')).doctorCommand(a);
        break;
      case 'mcp':
        code = await (await import('./commands/mcp.js')).mcpCommand(a);
        break;
      default:
        throw new UsageError(`unknown command "${command}"`);
    }
  } catch (err) {
    if (err instanceof UsageError) {
      if (err.message) process.stderr.write(`memvault: ${err.message}\n\n`);
      process.stderr.write(USAGE + '\n');
      code = err.message ? EXIT.usage : EXIT.ok;
    } else if (err instanceof ConfigError) {
      process.stderr.write(`memvault: ${err.message}\n`);
      code = EXIT.config;
    } else if ((err as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
      process.stderr.write(`memvault: ${(err as Error).message}\n`);
      code = EXIT.usage;
    } else {
      process.stderr.write(`memvault: ${(err as Error).stack ?? String(err)}\n`);
      code = EXIT.failure;
    }
  }
  process.exitCode = code;
}
