// memvault's command line: parses arguments and dispatches to one command module; exit codes are stable.
import '../actors/embedder/onnxruntime-telemetry.js';
import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { ConfigError } from '../config/load.js';
import { isDamagedIndex } from '../actors/store-writer/damaged-index.js';
import { CommandFailure, EXIT, parseArgs, UsageError } from './args.js';

const USAGE = `memvault — a memory vault daemon for AI agents

  memvault start   --vault DIR [--config FILE] [--listen HOST:PORT]   run the daemon in the foreground
  memvault index   --vault DIR [--config FILE]                        index everything once, then exit
  memvault search  [--vault DIR] [--json] [-k N] [--mode hybrid|bm25|vector] [--group note|chunk] QUERY
  memvault status  [--vault DIR] [--config FILE] [--json] [--files]   counts, pending, model; with a daemon its actors
  memvault reindex [--vault DIR] [--config FILE]                      rebuild the index with the configured model
  memvault doctor  [--vault DIR] [--config FILE]                      check vault, model, sqlite-vec, config
  memvault models list [--vault DIR] [--config FILE] [--json]         cached models, their size, which one built the index
  memvault models pull [ORG/NAME] [--revision R] [--file F] [--hub-url URL] [--vault DIR] [--config FILE]
                                                                      download a hub model ahead of time (default: the configured one)
  memvault mcp     --vault DIR [--config FILE] [--agent NAME] [--token-file F]   MCP over stdio (uses the running daemon, or starts one)
  memvault run     JOB [--vault DIR] [--config FILE] [--date YYYY-MM-DD] [--event UID] [--json]   run a scheduled job now
  memvault jobs    [--vault DIR] [--json]                             the scheduled jobs: next run, last run and outcome
  memvault llm-usage [--vault DIR] [--since 7d|24h|YYYY-MM-DD] [--json]  LLM calls, tokens and cost from the invocation log
  memvault backfill --vault DIR --source vault|chat|task|correction|all [--from FILE.jsonl]   import episodes (idempotent)
  memvault forget  [--vault DIR] FACT_ID | --query TEXT [--confirm] | --episode ID [--reason WHY]
  memvault prune   [--vault DIR] [--json]                             the retention sweep now
  memvault recall  [--vault DIR] [--since 7d] [--top 20] [--json]     the memories searches brought back most
  memvault open    [--vault DIR] [--print]                            the status page: opens a one-time login link (--print: prints it)
  memvault agents  add NAME --scope read|write|admin [--folders Inbox,Projects/Atlas] [--sensitive] [--rate 20/s]
                   | list [--json] | revoke NAME | rotate NAME   [--vault DIR]   agents' own credentials (token shown once)
  memvault audit   [--vault DIR] [--agent A] [--since 1d] [--refused] [--json]   the audit trail of tool calls and refusals
  memvault consolidate [--vault DIR] [--force] [--json]               a dream run now (bypasses the gate; --force retries a skipped batch)
  memvault dream status [--vault DIR] [--json]                        the dream: watermark, pending days, last run, failures
  memvault undo    --run RUN_ID [--vault DIR] [--json]                revert every commit of one dream run
  memvault facts   [--vault DIR] [--entity E] [--predicate P] [--at DATE] [--json]   the facts true at an instant (default now)
  memvault timeline ENTITY [--vault DIR] [--json]                     every fact about or pointing at ENTITY, ended ones too
  memvault add-fact SUBJECT PREDICATE OBJECT [--from DATE] [--until DATE] [--temporary] [--vault DIR]
  memvault invalidate FACT_ID [--at DATE] [--vault DIR]               the fact ended (adds [until:: DATE] to its line)
  memvault delete-fact FACT_ID [--vault DIR]                          remove a wrong fact's line (a commit)

Environment: MEMVAULT_LISTEN (HOST:PORT), MEMVAULT_DATA_DIR (default <vault>/.memvault).`;

/**
 * A reader that stops early (`memvault doctor | head -1`) closes the pipe: the rest of the output goes nowhere, quietly,
 * and the command ends with its own exit status, where every command died with an unhandled EPIPE and its stack.
 */
const quieted = new WeakSet<NodeJS.WriteStream>(); // main may run more than once in a process (tests)
function quietWhenTheReaderGoes(stream: NodeJS.WriteStream): void {
  if (quieted.has(stream)) return;
  quieted.add(stream);
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE') throw err;
  });
}

export async function main(argv: string[]): Promise<void> {
  quietWhenTheReaderGoes(process.stdout);
  quietWhenTheReaderGoes(process.stderr);
  const [command, ...rest] = argv;
  let code: number = EXIT.ok;
  try {
    if (!command || command === 'help' || command === '--help' || command === '-h') {
      process.stdout.write(USAGE + '\n');
      return;
    }
    const a = parseArgs(rest);
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
      case 'models':
        code = await (await import('./commands/models.js')).modelsCommand(a);
        break;
      case 'mcp':
        code = await (await import('./commands/mcp.js')).mcpCommand(a);
        break;
      case 'consolidate':
        code = await (await import('./commands/dream.js')).consolidateCommand(a);
        break;
      case 'dream':
        code = await (await import('./commands/dream.js')).dreamStatusCommand(a);
        break;
      case 'undo':
        code = await (await import('./commands/dream.js')).undoCommand(a);
        break;
      case 'run':
        code = await (await import('./commands/run.js')).runCommand(a);
        break;
      case 'jobs':
        code = await (await import('./commands/run.js')).jobsCommand(a);
        break;
      case 'llm-usage':
        code = await (await import('./commands/llm-usage.js')).llmUsageCommand(a);
        break;
      case 'backfill':
        code = await (await import('./commands/backfill.js')).backfillCommand(a);
        break;
      case 'forget':
        code = await (await import('./commands/forget.js')).forgetCommand(a);
        break;
      case 'prune':
        code = await (await import('./commands/prune.js')).pruneCommand(a);
        break;
      case 'open':
        code = await (await import('./commands/open.js')).openCommand(a);
        break;
      case 'recall':
        code = await (await import('./commands/recall.js')).recallCommand(a);
        break;
      case 'agents':
        code = await (await import('./commands/agents.js')).agentsCommand(a);
        break;
      case 'audit':
        code = await (await import('./commands/audit.js')).auditCommand(a);
        break;
      case 'facts':
      case 'timeline':
      case 'add-fact':
      case 'invalidate':
      case 'delete-fact':
        code = await (await import('./commands/facts.js')).factsCommand(command, a);
        break;
      default:
        throw new UsageError(`unknown command "${command}"`);
    }
  } catch (err) {
    if (err instanceof UsageError) {
      if (err.message) process.stderr.write(`memvault: ${err.message}\n\n`);
      process.stderr.write(USAGE + '\n');
      code = err.message ? EXIT.usage : EXIT.ok;
    } else if (err instanceof CommandFailure) {
      process.stderr.write(`memvault: ${err.message}\n`);
      code = EXIT.failure;
    } else if (err instanceof ConfigError) {
      process.stderr.write(`memvault: ${err.message}\n`);
      code = EXIT.config;
    } else if ((err as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
      process.stderr.write(`memvault: ${(err as Error).message}\n`);
      code = EXIT.usage;
    } else if (oneLine(err) !== null) {
      process.stderr.write(`memvault: ${oneLine(err)}\n`);
      code = EXIT.failure;
    } else {
      process.stderr.write(`memvault: ${(err as Error).stack ?? String(err)}\n`);
      code = EXIT.failure;
    }
  }
  process.exitCode = code;
}

/**
 * Failures a user can act on, said in one line instead of a stack: a file the command could not read (a token file
 * that is not there), a daemon that stopped answering in the middle of a call (killed, or restarting), a refusal the
 * daemon answered with its reason, and an index file SQLite cannot read.
 */
function oneLine(err: unknown): string | null {
  const e = err as NodeJS.ErrnoException & { cause?: NodeJS.ErrnoException };
  if (typeof e?.syscall === 'string' && typeof e.path === 'string') return e.message;
  if (e instanceof TypeError && e.message === 'fetch failed') {
    const why = e.cause?.code ?? e.cause?.message ?? 'no answer';
    return `the daemon stopped answering in the middle of the call (${why}); is it still running? (memvault status)`;
  }
  if ((e as Error)?.name === 'DaemonRefusal') return (e as Error).message; // the daemon answered with a reason
  if ((e as Error)?.name === 'TimeoutError') return 'the daemon did not answer in time; is it overloaded or stopped? (memvault status)';
  // a damaged page met after the file opened (an open that fails says which file: bin/index-damaged.ts)
  if (isDamagedIndex(e))
    return `index_damaged: the index file cannot be read (${e.message}) — \`memvault reindex\` rebuilds it from the vault`;
  return null;
}

/** Whether this module is the process's entry (`node dist/bin/cli.js …`) rather than imported by bin/memvault. */
function runDirectly(): boolean {
  try {
    return process.argv[1] !== undefined && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href;
  } catch {
    return false;
  }
}

// `node dist/bin/cli.js start …` does what it says, as bin/memvault does: it used to load, do nothing and exit 0
if (runDirectly()) void main(process.argv.slice(2));
