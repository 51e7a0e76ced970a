// The description panels: device and sensors (camera info, options and
// their changes), streams (profiles, intrinsics, extrinsics), and the
// file's structure (chunks, compression, index, topics, damage).

import { bytes, el, short, table } from './util.js';

const INTRINSIC_KEYS = ['fx', 'fy', 'ppx', 'ppy', 'model', 'coeffs'];
/** Rows of the connection and chunk tables listed (all are counted). */
const LISTED_ROWS = 200;

function keyValues(object) {
  return table(['', ''], Object.entries(object || {}).map(([k, v]) => [k, String(v)]), { class: 'kv' });
}

function section(id, title, ...content) {
  return el('section', { id, class: 'panel' }, el('h2', {}, title), ...content);
}

export function devicePanel(recording, viewer) {
  const rs = recording.summary.realsense;
  if (!rs) return section('device', 'Device', el('p', {}, `Not a RealSense recording: ${recording.summary.not_realsense}`));
  const sensors = rs.sensors.map((sensor, i) => {
    const changes = recording.options.filter((c) => c.sensor === i);
    const names = new Set([...Object.keys(sensor.options), ...changes.map((c) => c.name)]);
    const rows = [...names].sort().map((name) => {
      const during = changes.filter((c) => c.name === name).map((c) =>
        el('a', { href: '#', class: 'seek', onclick: (e) => { e.preventDefault(); viewer.seek(c.t); } },
          `${short(c.t, 3)} s → ${short(c.value)}`));
      const recorded = name in sensor.options ? short(sensor.options[name]) : '';
      return [name, recorded, during.length ? el('span', { class: 'changes' }, during) : ''];
    });
    return el('div', { class: 'sensor' }, el('h3', {}, sensor.name), keyValues(sensor.info),
      table(recording.live ? ['option', 'value at start', ''] : ['option', 'recorded', 'changes during the recording'], rows, { class: 'options' }));
  });
  return section('device', 'Device', keyValues(rs.device), ...rs.notes.map((n) => el('p', { class: 'note' }, n)), ...sensors);
}

export function streamsPanel(recording) {
  const summaries = (recording.summary.realsense || { streams: [] }).streams;
  const rows = recording.streams.map((s) => {
    const summary = summaries.find((x) => x.stream === s.name && x.index === s.index) || {};
    const size = s.width ? `${s.width}×${s.height}` : '-';
    return [s.key, summary.sensor || '', s.format, size, s.fps, s.frames.t.length,
      summary.measured_fps ? short(summary.measured_fps, 2) : '-',
      s.depth_units ? `${short(s.depth_units * 1000, 4)} mm` : ''];
  });
  const intrinsics = summaries.filter((s) => s.intrinsics).map((s) =>
    [`${s.stream} ${s.index}`, ...INTRINSIC_KEYS.map((k) => (Array.isArray(s.intrinsics[k])
      ? s.intrinsics[k].map((c) => short(c)).join(', ') : short(s.intrinsics[k])))]);
  const extrinsics = el('div', { id: 'extrinsics' });
  const targets = recording.streams.map((st) => st.key).filter((key) => recording.extrinsics.some((e) => e.to === key));
  const choice = el('select', { id: 'extrinsics-to' }, targets.map((t) => el('option', { value: t }, t)));
  const showExtrinsics = () => {
    const rows = recording.extrinsics.filter((e) => e.to === choice.value).map((e) => [e.from,
      e.rotation.map((r) => short(r, 6)).join(', '), e.translation.map((r) => short(r, 6)).join(', ')]);
    extrinsics.replaceChildren(table(['from', 'rotation (column-major)', 'translation (m)'], rows));
  };
  choice.addEventListener('change', showExtrinsics);
  showExtrinsics();
  return section('streams', 'Streams',
    table(['stream', 'sensor', 'format', 'size', 'fps', 'frames', 'measured fps', 'depth unit'], rows, { id: 'stream-table' }),
    el('h3', {}, 'Intrinsics'),
    intrinsics.length ? table(['stream', ...INTRINSIC_KEYS], intrinsics) : el('p', {}, 'none recorded'),
    el('h3', {}, 'Extrinsics to ', targets.length ? choice : 'another stream'),
    targets.length ? extrinsics : el('p', {}, 'none recorded'));
}

export function structurePanel(recording) {
  const s = recording.summary;
  const check = recording.check;
  const damage = [...check.damage, ...recording.read_errors];
  if (s.scan) {
    for (const chunk of s.scan.damaged_chunks) damage.push(`chunk at byte ${chunk.offset}: ${chunk.reason}`);
    if (s.scan.stopped_at) damage.push(`the file is cut off at byte ${s.scan.stopped_at.offset}: ${s.scan.stopped_at.reason}`);
  }
  const facts = {
    file: recording.file,
    format: { bag: 'ROS bag v2.0', db3: 'rosbag2 .db3 (SQLite, CDR)', mcap: 'MCAP (CDR)' }[s.format] || s.format,
    size: bytes(s.size),
    index: s.index === 'indexed' ? 'read from the index' : 'missing or damaged: the file was scanned',
    chunks: s.chunks,
    compression: Object.entries(s.compression).map(([name, n]) => `${n} ${name}`).join(', ') || '-',
    messages: s.messages,
    'bag time': `${short(s.start_ns / 1e9, 6)} s to ${short(s.end_ns / 1e9, 6)} s`,
    'RealSense file version': s.realsense ? s.realsense.file_version : '-',
  };
  const checks = Object.entries(check.streams).map(([key, c]) => [key, c.frames,
    c.numbers ? `#${c.numbers[0]}..#${c.numbers[1]}` : '-', c.dropped, c.out_of_order, c.duplicates]);
  const chunks = (recording.chunks || []).slice(0, LISTED_ROWS).map((c, i) =>
    [i + 1, c.offset, c.compression, c.messages, `${short(c.start, 6)} s`, `${short(c.end, 6)} s`]);
  const more = (rows, what) => (rows && rows.length > LISTED_ROWS
    ? el('p', {}, `… and ${rows.length - LISTED_ROWS} more ${what}`) : null);
  return section('structure', 'Structure',
    keyValues(facts),
    el('h3', {}, 'Damage'),
    damage.length ? el('ul', { id: 'damage' }, damage.map((d) => el('li', {}, d))) : el('p', { id: 'damage' }, 'none found'),
    el('h3', {}, 'Frames (rsbag check)'),
    table(['stream', 'frames', 'numbers', 'dropped', 'out of order', 'duplicates'], checks, { id: 'check-table' }),
    el('h3', {}, 'Topics'),
    table(['topic', 'type', 'messages'], s.topics.map((t) => [t.topic, t.type, t.messages]), { id: 'topics' }),
    recording.connections ? el('h3', {}, 'Connections') : null,
    recording.connections ? table(['id', 'topic', 'type', 'md5sum', 'messages'],
      recording.connections.slice(0, LISTED_ROWS).map((c) => [c.id, c.topic, c.type, c.md5sum, c.messages]),
      { id: 'connections' }) : null,
    more(recording.connections, 'connections'),
    recording.chunks ? el('h3', {}, 'Chunks') : null,
    recording.chunks ? table(['#', 'offset', 'compression', 'messages', 'from', 'to'], chunks, { id: 'chunks' }) : null,
    more(recording.chunks, 'chunks'));
}
