/**
 * Makes an element: `attributes` (an `on…` function is a listener; `false`, `null` and `undefined`
 * leave the attribute out), then `children`. Strings become text nodes: model output is never HTML.
 */
export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (typeof value === 'function') node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? '' : String(value));
  }
  node.append(...children.filter((child) => child !== undefined && child !== null && child !== false));
  return node;
}

/** A spinner for work in progress, hidden from screen readers (the text beside it says what runs). */
export const spinner = () => el('span', { class: 'spinner', 'aria-hidden': 'true' });
