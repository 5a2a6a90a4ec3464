import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { ConfigError } from '../../errors/ConfigError.js';
import type { Budget } from '../../budget.js';
import { parseKeysFile, readKeysFile, writeKeysFile, type KeyEntry } from './keysFile.js';
import { sha256 } from './resolveKey.js';

const USAGE = `usage:
  rxgate keys new --id <id> [--models a,b] [--rpm N] [--max-streams N] [--expires 2027-06-30] [--admin]
                  [--budget-usd 50 --budget-period day|week|month|<ms> [--budget-time-zone Europe/Berlin] [--budget-soft-usd 40]]
  rxgate keys list
  rxgate keys revoke <id>
The keys file is RXGATE_KEYS_FILE (or --keys-file <path>).`;

/** A new key: `rxg_` and 43 characters of 32 random bytes. */
const newKey = (): string => `rxg_${randomBytes(32).toString('base64url')}`;

const count = (flag: string, value: string | undefined): number | undefined => {
  if (value === undefined) return undefined;
  if (!/^[1-9]\d*$/.test(value)) throw new ConfigError(`${flag} must be a positive whole number, not ${JSON.stringify(value)}`);
  return Number(value);
};

const usd = (flag: string, value: string): number => {
  if (!/^\d+(\.\d+)?$/.test(value) || Number(value) <= 0)
    throw new ConfigError(`${flag} must be a positive amount of USD, not ${JSON.stringify(value)}`);
  return Number(value);
};

/** The `budget` the flags ask for: none without `--budget-usd`; a period of digits is a rolling window of that many ms. */
function budgetOf(values: Readonly<Record<string, string | boolean | undefined>>): Budget | undefined {
  const amount = values['budget-usd'];
  const period = values['budget-period'];
  const zone = values['budget-time-zone'];
  const soft = values['budget-soft-usd'];
  if (typeof amount !== 'string') {
    if (period !== undefined || zone !== undefined || soft !== undefined)
      throw new ConfigError(`--budget-period, --budget-time-zone and --budget-soft-usd need --budget-usd\n${USAGE}`);
    return undefined;
  }
  if (typeof period !== 'string')
    throw new ConfigError(`--budget-usd needs --budget-period (day, week, month or a rolling window in ms)\n${USAGE}`);
  return {
    usd: usd('--budget-usd', amount),
    period: /^\d+$/.test(period) ? { rollingMs: Number(period) } : (period as Budget['period']),
    ...(typeof zone === 'string' ? { timeZone: zone } : {}),
    ...(typeof soft === 'string' ? { softUsd: usd('--budget-soft-usd', soft) } : {}),
  };
}

function describeBudget({ usd: amount, period, timeZone, softUsd }: Budget): string {
  const every = typeof period === 'string' ? period : `${period.rollingMs}ms`;
  return `budget=$${amount}/${every}${timeZone ? `@${timeZone}` : ''}${softUsd === undefined ? '' : `,soft=$${softUsd}`}`;
}

function describeEntry({ id, admin, models, rpm, maxStreams, expiresAt, budget }: KeyEntry): string {
  const policy = [
    admin ? 'admin' : undefined,
    models ? `models=${models.join(',')}` : undefined,
    rpm === undefined ? undefined : `rpm=${rpm}`,
    maxStreams === undefined ? undefined : `max-streams=${maxStreams}`,
    expiresAt ? `expires=${expiresAt}` : undefined,
    budget ? describeBudget(budget) : undefined,
  ].filter((part) => part !== undefined);
  return [id, ...policy].join('\t');
}

/**
 * `rxgate keys new|list|revoke`: makes a key (printed once, only its digest is kept), lists the
 * ids and policies (never digests), or revokes one; a server watching the file follows at once.
 * Returns what to print.
 */
export function keysCommand(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): string {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      'keys-file': { type: 'string' },
      id: { type: 'string' },
      models: { type: 'string' },
      rpm: { type: 'string' },
      'max-streams': { type: 'string' },
      expires: { type: 'string' },
      admin: { type: 'boolean' },
      'budget-usd': { type: 'string' },
      'budget-period': { type: 'string' },
      'budget-time-zone': { type: 'string' },
      'budget-soft-usd': { type: 'string' },
    },
  });
  const path = values['keys-file'] ?? env.RXGATE_KEYS_FILE;
  if (!path) throw new ConfigError(`no keys file: set RXGATE_KEYS_FILE or pass --keys-file\n${USAGE}`);
  const [command, ...rest] = positionals;
  const entries = () => (existsSync(path) ? readKeysFile(path) : []);
  switch (command) {
    case 'new': {
      if (!values.id) throw new ConfigError(`keys new needs --id\n${USAGE}`);
      const budget = budgetOf(values);
      const key = newKey();
      const entry: KeyEntry = {
        id: values.id,
        sha256: sha256(key).toString('hex'),
        ...(values.models === undefined
          ? {}
          : {
              models: values.models
                .split(',')
                .map((model) => model.trim())
                .filter(Boolean),
            }),
        ...(values.rpm === undefined ? {} : { rpm: count('--rpm', values.rpm) }),
        ...(values['max-streams'] === undefined ? {} : { maxStreams: count('--max-streams', values['max-streams']) }),
        ...(values.expires === undefined ? {} : { expiresAt: values.expires }),
        ...(values.admin ? { admin: true } : {}),
        ...(budget ? { budget } : {}),
      };
      const next = [...entries(), entry];
      // The whole file is checked as the server will read it: a repeated id or a bad date is refused before it is written.
      parseKeysFile(JSON.stringify({ keys: next }), path);
      writeKeysFile(path, next);
      return `${key}\n(key '${entry.id}' added to ${path}; this is the only time it is shown)\n`;
    }
    case 'list':
      return entries()
        .map((entry) => `${describeEntry(entry)}\n`)
        .join('');
    case 'revoke': {
      const [id] = rest;
      if (!id) throw new ConfigError(`keys revoke needs the id of a key\n${USAGE}`);
      const before = entries();
      const after = before.filter((entry) => entry.id !== id);
      if (after.length === before.length) throw new ConfigError(`no key '${id}' in ${path}`);
      writeKeysFile(path, after);
      return `key '${id}' revoked\n`;
    }
    default:
      throw new ConfigError(USAGE);
  }
}
