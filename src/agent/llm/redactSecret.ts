/** `text` with every occurrence of `secret` replaced, for upstream text that may echo the API key back. */
export function redactSecret(text: string, secret: string | undefined): string {
  return secret ? text.split(secret).join('[redacted]') : text;
}
