// The timeline: a lane per stream with a tick per frame, the findings of
// `rsbag check` (dropped frames as red spans, out-of-order and duplicate
// frames as marks), lanes for option changes, notifications (in a
// session, a lane of each per camera) and chunks, and the cursor. Click
// or drag to move the cursor, the wheel zooms, a double click shows the
// whole recording again.

import { el, lastAtOrBefore, short } from './util.js';

const LABEL_WIDTH = 120;
/** Room right of the last frame, so its tick is inside the canvas. */
const RIGHT_MARGIN = 8;
const LANE_HEIGHT = 22;
const COLORS = {
  frame: '#3a6ea5',
  gap: '#d62728',
  'out of order': '#ff7f0e',
  duplicate: '#9467bd',
  option: '#2ca02c',
  notification: '#e377c2',
  chunk: ['#c7c7c7', '#a5a5a5'],
  cursor: '#111',
};

/** The lanes of option changes or notifications (`events`): one, or in
 * a session one per camera with any (`CAM-A/Options`). */
function controlLanes(events, label, kind) {
  const cameras = [...new Set(events.map((e) => e.camera))];
  return cameras.map((camera) => ({ name: camera === undefined ? label : `${camera}/${label}`, kind, camera }));
}

export class Timeline {
  constructor(recording, viewer) {
    this.recording = recording;
    this.viewer = viewer;
    this.duration = Math.max(recording.duration_s, 1e-3);
    this.view = [0, this.duration];
    this.lanes = this.makeLanes(recording);
    this.canvas = el('canvas', { id: 'timeline-canvas' });
    this.cursorCanvas = el('canvas', { id: 'timeline-cursor' });
    this.node = el('div', { id: 'timeline' }, this.canvas, this.cursorCanvas);
    /** What was drawn besides frame ticks, for hover and for tests. */
    this.marks = [];
    this.dragging = false;
    const canvas = this.cursorCanvas;
    canvas.addEventListener('mousedown', (e) => {
      this.dragging = true;
      this.seekAt(e);
    });
    window.addEventListener('mouseup', () => {
      this.dragging = false;
    });
    canvas.addEventListener('mousemove', (e) => (this.dragging ? this.seekAt(e) : this.hover(e)));
    canvas.addEventListener('mouseleave', () => viewer.tooltip.hide());
    canvas.addEventListener('wheel', (e) => this.zoom(e), { passive: false });
    canvas.addEventListener('dblclick', () => {
      this.view = [0, this.duration];
      this.draw();
    });
    new ResizeObserver(() => this.draw()).observe(this.node);
  }

  makeLanes(recording) {
    const lanes = recording.streams.map((stream) => ({
      name: stream.key,
      kind: 'stream',
      stream,
      findings: (recording.check.streams[stream.key] || { findings: [] }).findings,
    }));
    lanes.push(...controlLanes(recording.options, 'Options', 'options'),
      ...controlLanes(recording.notifications, 'Notifications', 'notifications'));
    if (recording.chunks && recording.chunks.length) lanes.push({ name: 'Chunks', kind: 'chunks' });
    return lanes;
  }

  x(t) {
    const [a, b] = this.view;
    return LABEL_WIDTH + ((t - a) / (b - a)) * (this.width - LABEL_WIDTH - RIGHT_MARGIN);
  }

  time(x) {
    const [a, b] = this.view;
    return a + ((x - LABEL_WIDTH) / (this.width - LABEL_WIDTH - RIGHT_MARGIN)) * (b - a);
  }

  draw() {
    this.width = Math.max(this.node.clientWidth, LABEL_WIDTH + 100);
    const height = this.lanes.length * LANE_HEIGHT + 18;
    for (const canvas of [this.canvas, this.cursorCanvas]) {
      canvas.width = this.width;
      canvas.height = height;
    }
    const context = this.canvas.getContext('2d');
    context.clearRect(0, 0, this.width, height);
    context.font = '12px sans-serif';
    this.marks = [];
    this.lanes.forEach((lane, i) => this.drawLane(context, lane, i * LANE_HEIGHT));
    this.drawAxis(context, this.lanes.length * LANE_HEIGHT);
    this.drawCursor();
  }

  drawLane(context, lane, top) {
    context.fillStyle = top % (2 * LANE_HEIGHT) ? '#f7f7f7' : '#eef1f5';
    context.fillRect(0, top, this.width, LANE_HEIGHT);
    context.fillStyle = '#222';
    context.fillText(lane.name, 4, top + 15);
    const [a, b] = this.view;
    if (lane.kind === 'stream') {
      this.drawTicks(context, lane.stream.frames.t, top);
      for (const finding of lane.findings) this.drawFinding(context, lane, finding, top);
    } else if (lane.kind === 'options') {
      for (const change of this.recording.options.filter((c) => c.camera === lane.camera)) {
        const sensor = this.viewer.sensorName(change.sensor, change.camera);
        this.drawMark(context, change.t, top, COLORS.option, 'option',
          [`${change.name} = ${short(change.value)}`, `${sensor}, at ${short(change.t, 6)} s`], lane);
      }
    } else if (lane.kind === 'notifications') {
      for (const n of this.recording.notifications.filter((e) => e.camera === lane.camera)) {
        this.drawMark(context, n.t, top, COLORS.notification, 'notification',
          [`${n.severity} ${n.category}: ${n.description}`, `${this.viewer.sensorName(n.sensor, n.camera)}, at ${short(n.t, 6)} s`], lane);
      }
    } else if (lane.kind === 'chunks') {
      this.recording.chunks.forEach((chunk, i) => {
        if (chunk.end < a || chunk.start > b) return;
        const x0 = this.x(Math.max(chunk.start, a));
        const x1 = Math.max(this.x(Math.min(chunk.end, b)), x0 + 1);
        context.fillStyle = COLORS.chunk[i % 2];
        context.fillRect(x0, top + 5, x1 - x0, LANE_HEIGHT - 10);
        this.marks.push({ lane: lane.name, kind: 'chunk', t: chunk.start, x0, x1, y: top + LANE_HEIGHT / 2,
          text: [`chunk ${i + 1} at byte ${chunk.offset}`, `${chunk.messages} messages, ${chunk.compression}`,
            `${short(chunk.start, 6)} s to ${short(chunk.end, 6)} s`] });
      });
    }
  }

  /** A tick per pixel column that holds frames: the frames in view are
   * found by bisection, one per column, so a long recording (millions of
   * frames) draws as fast as a short one. */
  drawTicks(context, times, top) {
    const [a, b] = this.view;
    context.strokeStyle = COLORS.frame;
    context.beginPath();
    let i = lastAtOrBefore(times, a - 1e-12) + 1;
    while (i < times.length && times[i] <= b) {
      const column = Math.round(this.x(times[i]));
      context.moveTo(column + 0.5, top + 4);
      context.lineTo(column + 0.5, top + LANE_HEIGHT - 4);
      // The first frame past this column.
      i = Math.max(i + 1, lastAtOrBefore(times, this.time(column + 0.5)) + 1);
    }
    context.stroke();
  }

  /** A dropped-frames span (from the frame before to the one after), or a
   * mark on an out-of-order or duplicate frame. */
  drawFinding(context, lane, finding, top) {
    const times = lane.stream.frames.t;
    const color = COLORS[finding.kind];
    const words = finding.kind === 'gap'
      ? `${finding.missing} frame${finding.missing === 1 ? '' : 's'} dropped before #${finding.number} (after #${finding.previous_number})`
      : `#${finding.number} ${finding.kind} (after #${finding.previous_number})`;
    const text = [`${lane.name}: ${words}`, `at ${short(finding.t, 6)} s, timestamp ${short(finding.timestamp, 3)} ms`];
    if (finding.kind !== 'gap') {
      this.drawMark(context, finding.t, top, color, finding.kind, text, lane);
      return;
    }
    const before = lastAtOrBefore(times, finding.t - 1e-9);
    const start = before >= 0 ? times[before] : finding.t;
    const x0 = this.x(start);
    const x1 = Math.max(this.x(finding.t), x0 + 3);
    if (x1 < LABEL_WIDTH || x0 > this.width) return;
    context.fillStyle = color;
    context.globalAlpha = 0.55;
    context.fillRect(x0, top + 2, x1 - x0, LANE_HEIGHT - 4);
    context.globalAlpha = 1;
    this.marks.push({ lane: lane.name, kind: 'gap', t: finding.t, start, x0, x1, y: top + LANE_HEIGHT / 2, text, finding });
  }

  drawMark(context, t, top, color, kind, text, lane) {
    const [a, b] = this.view;
    if (t < a || t > b) return;
    const x = this.x(t);
    const y = top + LANE_HEIGHT / 2;
    context.fillStyle = color;
    context.beginPath();
    context.moveTo(x, y - 6);
    context.lineTo(x + 5, y);
    context.lineTo(x, y + 6);
    context.lineTo(x - 5, y);
    context.fill();
    this.marks.push({ lane: lane.name, kind, t, x0: x - 5, x1: x + 5, y, text });
  }

  drawAxis(context, top) {
    const [a, b] = this.view;
    const span = b - a;
    const unit = 10 ** Math.floor(Math.log10(span / 5));
    const tick = [1, 2, 5, 10].map((m) => m * unit).find((s) => span / s <= 10) || unit * 10;
    context.fillStyle = '#444';
    context.strokeStyle = '#999';
    for (let t = Math.ceil(a / tick) * tick; t <= b; t += tick) {
      const x = Math.round(this.x(t)) + 0.5;
      context.beginPath();
      context.moveTo(x, top);
      context.lineTo(x, top + 4);
      context.stroke();
      const label = `${short(t, 3)} s`;
      const room = this.width - context.measureText(label).width - 1;
      context.fillText(label, Math.min(x + 2, room), top + 14);
    }
  }

  drawCursor() {
    const context = this.cursorCanvas.getContext('2d');
    context.clearRect(0, 0, this.cursorCanvas.width, this.cursorCanvas.height);
    const t = this.viewer.time;
    if (t < this.view[0] || t > this.view[1]) return;
    const x = Math.round(this.x(t)) + 0.5;
    context.strokeStyle = COLORS.cursor;
    context.lineWidth = 2;
    context.beginPath();
    context.moveTo(x, 0);
    context.lineTo(x, this.cursorCanvas.height);
    context.stroke();
  }

  seekAt(event) {
    const box = this.cursorCanvas.getBoundingClientRect();
    const x = event.clientX - box.left;
    if (x < LABEL_WIDTH) return;
    this.viewer.seek(Math.min(this.duration, Math.max(0, this.time(x))));
  }

  zoom(event) {
    event.preventDefault();
    const box = this.cursorCanvas.getBoundingClientRect();
    const x = event.clientX - box.left;
    if (x < LABEL_WIDTH) return;
    const at = this.time(x);
    const factor = event.deltaY > 0 ? 1.25 : 0.8;
    const [a, b] = this.view;
    const span = Math.min(this.duration, Math.max(1e-4, (b - a) * factor));
    let start = at - ((at - a) / (b - a)) * span;
    start = Math.min(Math.max(0, start), this.duration - span);
    this.view = [start, start + span];
    this.draw();
  }

  hover(event) {
    const box = this.cursorCanvas.getBoundingClientRect();
    const x = event.clientX - box.left;
    const y = event.clientY - box.top;
    const lane = this.lanes[Math.floor(y / LANE_HEIGHT)];
    if (!lane || x < LABEL_WIDTH) {
      this.viewer.tooltip.hide();
      return;
    }
    const mark = this.marks.find((m) => m.lane === lane.name && x >= m.x0 - 2 && x <= m.x1 + 2);
    if (mark) {
      this.viewer.tooltip.show(event, mark.text);
      return;
    }
    if (lane.kind === 'stream') {
      const frames = lane.stream.frames;
      const i = Math.max(0, lastAtOrBefore(frames.t, this.time(x)));
      if (frames.t.length) {
        this.viewer.tooltip.show(event, [`${lane.name} frame #${frames.number[i]} (${i + 1} of ${frames.t.length})`,
          `timestamp ${short(frames.timestamp[i], 3)} ms, at ${short(frames.t[i], 6)} s`]);
        return;
      }
    }
    this.viewer.tooltip.hide();
  }
}
