/** `text` with every occurrence of each secret replaced, for anything a server or its errors say. */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  return secrets.reduce((redacted, secret) => redacted.split(secret).join('[redacted]'), text);
}
