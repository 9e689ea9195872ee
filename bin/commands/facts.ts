// `memvault facts | timeline | add-fact | invalidate | delete-fact`: the knowledge tools from the command line. They
// call the running daemon's tools over HTTP; without one, a daemon is started in this process for the call.
import { configFor, UsageError, type Args } from '../args.js';
import { callToolCommand } from '../tool-call.js';

interface Fact {
  id: number;
  subject: string;
  predicate: string;
  object: string;
  valid_from: string | null;
  valid_until: string | null;
  temporary: boolean;
  invalidated_at: string | null;
  path: string;
  line: number;
}

function request(command: string, a: Args): { tool: string; args: Record<string, unknown> } {
  const [first, second, third] = a.rest;
  const id = (): number => {
    const n = Number(first);
    if (!Number.isInteger(n) || n < 1) throw new UsageError(`${command} needs a FACT_ID (a positive integer, as facts lists it)`);
    return n;
  };
  switch (command) {
    case 'facts':
      return {
        tool: 'memory_facts',
        args: {
          ...(a.entity !== undefined ? { entity: a.entity } : {}),
          ...(a.predicate !== undefined ? { predicate: a.predicate } : {}),
          ...(a.at !== undefined ? { at: a.at } : {}),
        },
      };
    case 'timeline':
      if (first === undefined) throw new UsageError('timeline needs an ENTITY');
      if (a.rest.length > 1)
        throw new UsageError(
          `timeline takes one ENTITY, got ${a.rest.length} words: quote a name with spaces ("Maya Chen"); add-fact, invalidate and delete-fact are commands of their own`,
        );
      return { tool: 'memory_timeline', args: { entity: first } };
    case 'add-fact':
      if (third === undefined) throw new UsageError('add-fact needs SUBJECT PREDICATE OBJECT');
      return {
        tool: 'memory_add_fact',
        args: {
          subject: first,
          predicate: second,
          object: a.rest.slice(2).join(' '),
          ...(a.from !== undefined ? { valid_from: a.from } : {}),
          ...(a.until !== undefined ? { valid_until: a.until } : {}),
          ...(a.temporary ? { temporary: true } : {}),
        },
      };
    case 'invalidate':
      return { tool: 'memory_invalidate_fact', args: { id: id(), ...(a.at !== undefined ? { at: a.at } : {}) } };
    case 'delete-fact':
      return { tool: 'memory_delete_fact', args: { id: id() } };
    default:
      throw new UsageError(`unknown command "${command}"`);
  }
}

export function factLine(f: Fact): string {
  const when = [f.valid_from ? `from ${f.valid_from}` : '', f.valid_until ? `until ${f.valid_until}` : ''].filter(Boolean).join(' ');
  const flags = [when, f.temporary ? 'temporary' : '', f.invalidated_at ? `removed ${f.invalidated_at.slice(0, 10)}` : '']
    .filter(Boolean)
    .join(', ');
  return `${String(f.id).padStart(6)}  ${f.subject} · ${f.predicate} · ${f.object}${flags ? `  (${flags})` : ''}  ${f.path}:${f.line}`;
}

function render(command: string, body: Record<string, unknown>): string {
  if (command === 'facts' || command === 'timeline') {
    const facts = body['facts'] as Fact[];
    return facts.length === 0 ? 'no facts\n' : `${facts.map(factLine).join('\n')}\n`;
  }
  if (body['outcome'] === 'noop_dup') return `already known: ${factLine(body['fact'] as Fact)}\n`;
  const what = body['outcome'] ?? command.replace('-fact', 'd').replace('invalidate', 'invalidated');
  return `${what} ${body['path']}:${body['line']}${body['id'] ? ` (fact ${body['id']})` : ''}${body['commit'] ? `\ncommit ${body['commit']}` : ''}\n`;
}

export async function factsCommand(command: string, a: Args): Promise<number> {
  const cfg = configFor(a, { vaultRequired: false });
  const { tool, args } = request(command, a);
  return callToolCommand(cfg, a, tool, args, (body) => render(command, body), `${command} done`);
}
