/** `text` with every occurrence of each secret replaced, for anything an upstream, a server or its errors say (they may echo a key back). */
export function redactSecrets(text: string, secrets: readonly (string | undefined)[]): string {
  return secrets.reduce<string>((redacted, secret) => (secret ? redacted.split(secret).join('[redacted]') : redacted), text);
}

/**
 * The first `maxChars` characters of `text` with its secrets redacted, in that order: cut first, a
 * secret that straddles the cut no longer matches, and its first characters would show.
 */
export function redactThenCut(text: string, secrets: readonly (string | undefined)[], maxChars: number): string {
  return redactSecrets(text, secrets).slice(0, maxChars);
}
