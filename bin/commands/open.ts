// `memvault open [--vault DIR] [--print]`: the status page of the daemon serving the vault, through a one-time login
// link (page/session.ts) opened in the browser — or printed, with --print or when there is no display to open it on.
import { spawn } from 'node:child_process';
import { loginLink } from '../../actors/gateway/page/session.js';
import { configFor, EXIT, type Args } from '../args.js';
import { findDaemon } from '../client.js';

function opener(): string | null {
  if (process.platform === 'darwin') return 'open';
  if (process.platform === 'win32') return null; // `start` needs a shell that would read & in the link: print it
  return process.env['DISPLAY'] || process.env['WAYLAND_DISPLAY'] ? 'xdg-open' : null;
}

export async function openCommand(a: Args): Promise<number> {
  const cfg = configFor(a, { vaultRequired: false });
  const daemon = await findDaemon(cfg);
  if (!daemon) {
    process.stderr.write(`memvault: no daemon serves ${cfg.vault}; start one with \`memvault start --vault ${cfg.vault}\`\n`);
    return EXIT.failure;
  }
  const link = loginLink(daemon.url, daemon.token);
  const cmd = a.print ? null : opener();
  if (cmd) {
    const opened = await new Promise<boolean>((resolve) => {
      const child = spawn(cmd, [link], { stdio: 'ignore', detached: true });
      child.once('error', () => resolve(false));
      child.once('exit', (code) => resolve(code === 0));
    });
    if (opened) {
      process.stderr.write('memvault: opened the status page in your browser (the login link works once, for ten minutes)\n');
      return EXIT.ok;
    }
  }
  process.stdout.write(`${link}\n`);
  if (!a.print) process.stderr.write('memvault: no browser to open here; open the link above (it works once, for ten minutes)\n');
  return EXIT.ok;
}
