// What only a session of several recordings shows (`rsbag view A.bag
// B.db3 ...`): the clock its frames are placed on, its cameras, and the
// sync report of `rsbag check` (per pair of cameras: clock offset and
// drift, frames without a partner, gaps), worded and rounded as `check`
// prints it.

import { el, table } from './util.js';

/** `x` with `digits` decimals and its sign, as Rust's `{:+.N}` prints
 * it. */
function signed(x, digits) {
  const negative = x < 0 || Object.is(x, -0);
  return `${negative ? '-' : '+'}${Math.abs(x).toFixed(digits)}`;
}

function section(id, title, ...content) {
  return el('section', { id, class: 'panel' }, el('h2', {}, title), ...content);
}

/** The line that names the session's clock. */
export function clockLine(session) {
  const s = session.summary;
  return el('p', { id: 'session-clock' }, el('strong', {}, `Clock: ${s.clock}`), ` — ${s.clock_reason}.`);
}

/** The cameras of the session: file, serial, offset, streams, frames and
 * when each records on the session's clock. */
export function camerasPanel(session) {
  const rows = session.summary.cameras.map((c, i) => {
    const device = ((session.cameras[i] || {}).summary || {}).realsense;
    const name = device && device.device ? device.device.Name || '' : '';
    const span = c.span_s ? `${c.span_s[0].toFixed(3)} s .. ${c.span_s[1].toFixed(3)} s` : 'no frames';
    return [c.name, c.file, name, c.offset_s ? `${signed(c.offset_s, 3)} s` : '0', c.streams.join(', '), c.frames, span];
  });
  const overlap = session.summary.overlap_s;
  return section('session', 'Session',
    clockLine(session),
    el('p', {}, overlap
      ? `Every camera records from ${overlap[0].toFixed(3)} s to ${overlap[1].toFixed(3)} s.`
      : 'The cameras never all record at once.'),
    table(['camera', 'file', 'device', 'offset', 'streams', 'frames', 'records'], rows, { id: 'session-cameras' }));
}

/** The words of one pair of the sync report, by column. */
export function pairCells(pair) {
  const [a, b] = pair.cameras;
  const cells = {
    cameras: `${a} / ${b}`,
    streams: `${pair.streams[0]} / ${pair.streams[1]}`,
    overlap: 'none (never recording at once)',
    offset: '',
    drift: '',
    without_partner: '',
    gaps: '',
  };
  if (!pair.overlap_s) return cells;
  cells.overlap = `${pair.overlap_s[0].toFixed(3)} s .. ${pair.overlap_s[1].toFixed(3)} s`;
  if (pair.offset_ms != null && pair.drift_ppm != null) {
    cells.offset = `${signed(pair.offset_ms, 3)} ms (${b} minus ${a})`;
    // With its standard error, as `check` prints it.
    const error = pair.drift_ppm_error != null ? ` ± ${pair.drift_ppm_error.toFixed(1)}` : '';
    cells.drift = `${signed(pair.drift_ppm, 1)}${error} ppm`;
  }
  cells.without_partner = `${pair.without_partner[0]} of ${a}, ${pair.without_partner[1]} of ${b}`;
  cells.gaps = pair.gaps.length === 0 ? 'none'
    : pair.gaps.map((g) => `${g.camera} recorded nothing from ${g.from_s.toFixed(3)} s to ${g.to_s.toFixed(3)} s`).join('; ');
  return cells;
}

const COLUMNS = [['cameras', 'cameras'], ['streams', 'streams compared'], ['overlap', 'both recording'],
  ['offset', 'clock offset'], ['drift', 'drift'], ['without_partner', 'without partner'], ['gaps', 'gaps']];

/** The sync report: a row per pair of cameras. */
export function syncPanel(session) {
  const sync = session.sync;
  const rows = sync.pairs.map((pair) => {
    const cells = pairCells(pair);
    return el('tr', { 'data-pair': cells.cameras },
      COLUMNS.map(([key]) => el('td', { 'data-column': key }, cells[key])));
  });
  const errors = sync.read_errors > 0
    ? el('p', { class: 'note' }, `${sync.read_errors} frames could not be read and are not in the report.`) : null;
  return section('sync', 'Sync report',
    el('p', { id: 'sync-rule' }, `On ${sync.clock}, frames are partners within ${sync.tolerance_ms.toFixed(3)} ms.`),
    el('table', { id: 'sync-report' },
      el('thead', {}, el('tr', {}, COLUMNS.map(([, heading]) => el('th', {}, heading)))),
      el('tbody', {}, rows)),
    sync.pairs.length === 0 ? el('p', {}, 'No two cameras both have frames.') : null,
    errors);
}

/** What `rsbag check` found in each file: damage, frames that could not
 * be read, and frames dropped per lane. */
export function damagePanel(recording) {
  const damage = [...recording.check.damage, ...recording.read_errors];
  const dropped = recording.streams
    .map((s) => [s.key, (recording.check.streams[s.key] || {}).dropped || 0])
    .filter(([, n]) => n > 0)
    .map(([key, n]) => `${key}: ${n} frames dropped`);
  return section('check', 'Check',
    el('div', { id: 'damage' }, damage.length ? damage.map((d) => el('p', { class: 'error' }, d)) : 'No damage.'),
    el('div', { id: 'dropped' }, dropped.length ? dropped.map((d) => el('p', {}, d)) : 'No frames dropped.'));
}
