// Preloaded into every test process (package.json, tap.node-arg): the worker threads a test starts do not inherit
// tap's processinfo loader. tap runs each test file with `--import @tapjs/processinfo/import`, which records every
// module a process loads (for coverage and `tap --changed`); a thread inherits it (from execArgv and NODE_OPTIONS)
// and registers the loader again on a hooks thread of its own, so each of a daemon's ~12 threads loaded its bundle
// through a second thread: a daemon started in 6-8 s instead of 3 s and stopped in 0.8 s instead of 0.2 s
// (test/supervisors/helpers/worker-child.ts saw the same for one thread). Coverage is off (package.json); what tap
// still tracks is each process's main thread. The node processes a test spawns (a daemon, the CLI) get tap's loader
// through NODE_OPTIONS, and this module with it. A thread given its own `execArgv` or `env` keeps them; every other
// node option is inherited, as in production.
import { createRequire, syncBuiltinESMExports } from 'node:module';

const require = createRequire(import.meta.url);
const threads: typeof import('node:worker_threads') = require('node:worker_threads');

const LOADER = /"?--(?:import|loader|experimental-loader)[= ]\S*@tapjs\/processinfo\S*/g;
const isLoader = (arg: string) => arg.includes('@tapjs/processinfo');

/** The process's env as a thread gets it by default (a copy, now), without tap's loader in NODE_OPTIONS. */
function envWithoutLoader(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  const rest = (env['NODE_OPTIONS'] ?? '').replace(LOADER, '').trim();
  if (rest === '') delete env['NODE_OPTIONS'];
  else env['NODE_OPTIONS'] = rest;
  return env;
}

if (process.execArgv.some(isLoader) || isLoader(process.env['NODE_OPTIONS'] ?? '')) {
  const own = `--import=${import.meta.url}`;
  // tap.node-arg names this module relative to the checkout: a child forked with this execArgv elsewhere finds it
  const relative = process.execArgv.findIndex((a) => a.startsWith('--import=') && a.endsWith('/threads-skip-tap-loader.js'));
  if (relative >= 0) process.execArgv[relative] = own;
  const execArgv = process.execArgv.filter((a) => !isLoader(a));
  const Inherited = threads.Worker;
  // a subclass rather than a wrapper: `instanceof Worker` and every static stay as they are. An option given as
  // undefined is unset (piscina passes `execArgv: undefined, env: undefined` for its threads).
  class Worker extends Inherited {
    constructor(file: ConstructorParameters<typeof Inherited>[0], options: ConstructorParameters<typeof Inherited>[1] = {}) {
      super(file, { ...options, execArgv: options.execArgv ?? execArgv, env: options.env ?? envWithoutLoader() });
    }
  }
  threads.Worker = Worker;
  syncBuiltinESMExports(); // `import { Worker } from 'node:worker_threads'` now names this one too
  const options = process.env['NODE_OPTIONS'] ?? '';
  if (!options.includes(import.meta.url)) process.env['NODE_OPTIONS'] = `${options} ${own}`.trim();
}
