// What `\s` matches in Latin-1, by char code.
const LATIN1_SPACES = new Uint8Array(256);
for (let code = 0; code < 256; code++) {
  if (/\s/.test(String.fromCharCode(code))) LATIN1_SPACES[code] = 1;
}

/** Whether the UTF-16 code unit `code` is whitespace as `\s` has it, without a regex per character. */
export function isWhitespace(code: number): boolean {
  if (code < 256) return LATIN1_SPACES[code] === 1;
  return (
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}
