/** `text` with every occurrence of each secret replaced, for anything an upstream, a server or its errors say (they may echo a key back). */
export function redactSecrets(text: string, secrets: readonly (string | undefined)[]): string {
  return secrets.reduce<string>((redacted, secret) => (secret ? redacted.split(secret).join('[redacted]') : redacted), text);
}
