import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { z } from 'zod';
import { ConfigError } from '../../errors/ConfigError.js';
import { budgetSchema } from '../../budget.js';
import { DEFAULT_OWNER, type KeyPolicy } from '../../principal.js';

/** One key of `RXGATE_KEYS_FILE`: its id, the SHA-256 of the key (never the key), its policy. */
export interface KeyEntry extends KeyPolicy {
  readonly id: string;
  /** Lower-case hex SHA-256 of the key. */
  readonly sha256: string;
  /** ISO 8601; from then on the key is refused. */
  readonly expiresAt?: string;
  readonly admin?: boolean;
}

const entry = z.strictObject({
  id: z.string().regex(/^[\w.:-]{1,64}$/, 'must be 1 to 64 letters, digits, or . _ : -'),
  sha256: z
    .string()
    .regex(/^[0-9a-f]{64}$/i, 'must be the 64 hex digits of the SHA-256 of the key (never the key itself)')
    .transform((hex) => hex.toLowerCase()),
  models: z.array(z.string().min(1)).optional(),
  rpm: z.number().int().positive().optional(),
  maxStreams: z.number().int().positive().optional(),
  budget: budgetSchema.optional(),
  expiresAt: z.iso.datetime({ offset: true }).or(z.iso.date()).optional(),
  admin: z.boolean().optional(),
});

const file = z.strictObject({ keys: z.array(entry) }).superRefine(({ keys }, context) => {
  const ids = new Set<string>();
  const digests = new Set<string>();
  keys.forEach(({ id, sha256, admin }, index) => {
    // An admin sees all of it anyway; any other key would be handed another owner's items.
    if (id === DEFAULT_OWNER && !admin)
      context.addIssue({
        code: 'custom',
        path: ['keys', index, 'id'],
        message: `'${DEFAULT_OWNER}' owns what was stored before keys and RXGATE_API_KEY's items, which a key of that id would see and control: give this key another id (or "admin": true, if it is meant to see everything)`,
      });
    if (ids.has(id)) context.addIssue({ code: 'custom', path: ['keys', index, 'id'], message: `'${id}' is the id of an earlier key` });
    if (digests.has(sha256))
      context.addIssue({ code: 'custom', path: ['keys', index, 'sha256'], message: 'is the digest of an earlier key' });
    ids.add(id);
    digests.add(sha256);
  });
});

/** The entries of a keys file's text; anything unexpected is a `ConfigError` naming `source` and where. */
export function parseKeysFile(text: string, source: string): readonly KeyEntry[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`${source}: not valid JSON: ${(error as Error).message}`);
  }
  const parsed = file.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(top)'}: ${issue.message}`);
    throw new ConfigError(`${source}: invalid keys file:\n  ${problems.join('\n  ')}`);
  }
  return parsed.data.keys;
}

/** The bytes of the keys file at `path`; one that cannot be read is a `ConfigError` naming it. */
export function readKeysBytes(path: string): Buffer {
  try {
    return readFileSync(path);
  } catch (error) {
    throw new ConfigError(`RXGATE_KEYS_FILE=${JSON.stringify(path)}: cannot read it: ${(error as Error).message}`);
  }
}

/** The entries of the keys file at `path`. */
export function readKeysFile(path: string): readonly KeyEntry[] {
  return parseKeysBytes(readKeysBytes(path), path);
}

/** The entries of `bytes`, read from the keys file at `path`. */
export function parseKeysBytes(bytes: Buffer, path: string): readonly KeyEntry[] {
  return parseKeysFile(bytes.toString('utf8'), `RXGATE_KEYS_FILE=${JSON.stringify(path)}`);
}

/** Replaces the keys file at `path` with `entries`, whole (a reader never sees half a file), readable by its owner only. */
export function writeKeysFile(path: string, entries: readonly KeyEntry[]): void {
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify({ keys: entries }, null, 2)}\n`, { mode: 0o600 });
  renameSync(temporary, path);
}
