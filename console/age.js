/** How long ago Unix time `seconds` was, shortly: `12 s`, `3 min`, `2 h`, `4 d`. */
export function age(seconds, now = Date.now()) {
  const elapsed = Math.max(0, Math.round(now / 1000 - seconds));
  if (elapsed < 60) return `${elapsed} s`;
  if (elapsed < 3600) return `${Math.floor(elapsed / 60)} min`;
  if (elapsed < 86400) return `${Math.floor(elapsed / 3600)} h`;
  return `${Math.floor(elapsed / 86400)} d`;
}
