// Small DOM and number helpers. Text from the recording only ever goes
// in as text (never as HTML): a recording's strings are not trusted.

/** An element with attributes (`class`, `data-*`, `title`…) and children
 * (elements or text). */
export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null) continue;
    if (name === 'onclick') node.addEventListener('click', value);
    else node.setAttribute(name, value);
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

/** A table with a header row and rows of cells. */
export function table(headings, rows, attributes = {}) {
  return el('table', attributes,
    el('thead', {}, el('tr', {}, headings.map((h) => el('th', {}, h)))),
    el('tbody', {}, rows.map((row) => el('tr', {}, row.map((cell) => el('td', {}, cell))))));
}

/** The position of the last value <= x in a sorted array (-1: none). */
export function lastAtOrBefore(sorted, x) {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid] <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

/** A number with at most `digits` decimals, without trailing zeros. */
export function short(value, digits = 6) {
  if (typeof value !== 'number') return String(value);
  return String(Number(value.toFixed(digits)));
}

export function seconds(t) {
  return `${t.toFixed(3)} s`;
}

export function bytes(n) {
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];
  let unit = 0;
  while (n >= 1024 && unit < units.length - 1) {
    n /= 1024;
    unit++;
  }
  return unit === 0 ? `${n} bytes` : `${n.toFixed(1)} ${units[unit]}`;
}
