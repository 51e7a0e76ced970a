// The live page of `rsbag view --camera`: the latest frame of every video
// stream (as fast as the page draws them), each stream's rate and drops,
// the IMU scrolling, the device's sensors and options, and a button that
// starts and stops recording the camera into a file (see
// cli/src/view/live.rs for what the server answers).

import uPlot from 'uplot';
import { JET, LEGEND_STEPS } from './colormap.js';
import { pixelText, rgba } from './frames.js';
import { devicePanel } from './panels.js';
import { decodeFrame } from './source.js';
import { el, short, table } from './util.js';

/** How often the counts and IMU samples are asked for. */
const STATUS_EVERY_MS = 250;
/** Seconds of IMU the plots show. */
const PLOT_WINDOW_S = 5;
/** Seconds a measured rate is taken over. */
const RATE_WINDOW_S = 1;
/** How long a stream waits when it has no newer frame. */
const NO_NEW_FRAME_MS = 10;
/** Frames drawn that the page keeps a note of. */
const SHOWN_KEPT = 5000;
const SERIES = [['x', '#d62728'], ['y', '#2ca02c'], ['z', '#1f77b4']];
const UNITS = { Gyro: 'rad/s', Accel: 'm/s²' };

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const nextPaint = () => new Promise((resolve) => requestAnimationFrame(resolve));

async function postRecord(action) {
  const reply = await fetch(`api/live/record?action=${action}`, { method: 'POST' });
  const text = await reply.text();
  if (!reply.ok) throw new Error(text);
  return JSON.parse(text);
}

/** One video stream: its latest frame, fetched again as soon as drawn. */
class LiveStreamView {
  constructor(stream, viewer) {
    this.stream = stream;
    this.viewer = viewer;
    this.canvas = el('canvas', { class: 'frame', 'data-stream': stream.key });
    this.caption = el('div', { class: 'frame-info', 'data-stream': stream.key }, 'waiting for a frame…');
    this.figure = el('figure', { class: 'stream', 'data-stream': stream.key },
      el('figcaption', {}, `${stream.key} · ${stream.format} ${stream.width}×${stream.height} @ ${stream.fps}`),
      this.canvas, this.caption);
    if (stream.kind === 'depth') {
      this.legend = el('canvas', { class: 'legend', width: LEGEND_STEPS, height: 1, 'data-stream': stream.key });
      this.legendLabels = el('div', { class: 'legend-labels' });
      this.figure.append(this.legend, this.legendLabels);
    }
    this.shown = null;
    this.canvas.addEventListener('mousemove', (e) => this.hover(e));
    this.canvas.addEventListener('mouseleave', () => viewer.tooltip.hide());
  }

  /** How many pixels wide the picture appears: a frame wider than that
   * comes as every n-th pixel of every n-th row (a fraction of the bytes:
   * a 1280×720 camera at 30 fps stays live over a network). */
  shownWidth() {
    const width = this.canvas.clientWidth || this.figure.clientWidth || 480;
    return Math.ceil(width * (window.devicePixelRatio || 1));
  }

  /** Fetch and draw the newest frame, again and again. */
  async run() {
    const name = encodeURIComponent(this.stream.key);
    for (;;) {
      try {
        const after = this.shown ? `&after=${this.shown.header.index}` : '';
        const shownWidth = this.shownWidth();
        const narrower = this.stream.width > shownWidth ? `&max_width=${shownWidth}` : '';
        const reply = await fetch(`api/live/frame?stream=${name}${after}${narrower}`);
        if (reply.status === 204) {
          await sleep(NO_NEW_FRAME_MS);
          continue;
        }
        if (!reply.ok) throw new Error(await reply.text());
        this.draw(decodeFrame(await reply.arrayBuffer()));
        await nextPaint();
      } catch (error) {
        this.caption.textContent = String(error.message || error);
        await sleep(500);
      }
    }
  }

  draw(frame) {
    this.shown = frame;
    const { header } = frame;
    if (this.canvas.width !== header.width || this.canvas.height !== header.height) {
      this.canvas.width = header.width;
      this.canvas.height = header.height;
    }
    this.canvas.getContext('2d').putImageData(rgba(frame, this.viewer.depthRange), 0, 0);
    this.canvas.dataset.number = header.number;
    this.caption.textContent = `frame #${header.number} · ${short(header.timestamp, 3)} ms (${header.domain})`;
    if (this.legend) this.drawLegend();
    this.viewer.noteShown({ stream: this.stream.key, index: header.index, number: header.number, t: header.t });
  }

  drawLegend() {
    const { near, far } = this.viewer.depthRange;
    const strip = new ImageData(LEGEND_STEPS, 1);
    JET.forEach(([r, g, b], i) => strip.data.set([r, g, b, 255], 4 * i));
    this.legend.getContext('2d').putImageData(strip, 0, 0);
    this.legend.dataset.near = near;
    this.legend.dataset.far = far;
    this.legendLabels.replaceChildren(...[0, 0.25, 0.5, 0.75, 1].map((f) => el('span', {}, `${short(near + f * (far - near), 2)} m`)));
  }

  hover(event) {
    if (!this.shown) return;
    const { header } = this.shown;
    const box = this.canvas.getBoundingClientRect();
    const x = Math.floor(((event.clientX - box.left) / box.width) * header.width);
    const y = Math.floor(((event.clientY - box.top) / box.height) * header.height);
    if (x < 0 || y < 0 || x >= header.width || y >= header.height) return;
    // A narrower frame holds every step-th pixel of every step-th row.
    const step = Math.ceil(header.full_width / header.width);
    const where = step === 1 ? `${x}, ${y}` : `${x * step}, ${y * step} (every ${step}th pixel shown)`;
    this.viewer.tooltip.show(event, [
      `${header.stream} frame #${header.number}`,
      `timestamp ${short(header.timestamp, 3)} ms, ${header.domain}`,
      `pixel ${where}: ${pixelText(this.shown, x, y)}`,
      ...Object.entries(header.metadata).map(([key, value]) => `${key}: ${value}`),
    ]);
  }
}

/** The last PLOT_WINDOW_S seconds of an IMU stream, scrolling. */
class LivePlot {
  constructor(stream) {
    this.stream = stream;
    this.data = [[], [], [], []];
    this.node = el('figure', { class: 'plot', 'data-stream': stream.key },
      el('figcaption', {}, `${stream.key} (${UNITS[stream.name] || ''}), the last ${PLOT_WINDOW_S} s`));
    const options = {
      width: 600,
      height: 180,
      scales: { x: { time: false, auto: false } },
      axes: [{ label: 's' }, {}],
      series: [{ label: 't (s)' }, ...SERIES.map(([label, stroke]) => ({ label, stroke, width: 1 }))],
      legend: { live: false },
    };
    this.chart = new uPlot(options, this.data, this.node);
  }

  /** Add the samples that came, drop those out of the window, scroll to
   * `now`. */
  add(samples, now) {
    if (samples) {
      this.data[0].push(...samples.t);
      SERIES.forEach(([name], k) => this.data[k + 1].push(...samples[name]));
    }
    const first = this.data[0].findIndex((t) => t >= now - PLOT_WINDOW_S);
    const drop = first < 0 ? this.data[0].length : first;
    if (drop > 0) this.data.forEach((column) => column.splice(0, drop));
    this.chart.setData(this.data, false);
    this.chart.setScale('x', { min: now - PLOT_WINDOW_S, max: now });
  }

  resize(width) {
    this.chart.setSize({ width, height: 180 });
  }
}

class LiveViewer {
  constructor(document, tooltip) {
    this.document = document;
    this.tooltip = tooltip;
    this.depthRange = { near: 0.3, far: 4 };
    this.views = document.streams.filter((s) => s.kind === 'depth' || s.kind === 'image')
      .map((s) => new LiveStreamView(s, this));
    this.plots = document.streams.filter((s) => s.kind === 'motion').map((s) => new LivePlot(s));
    /** Every frame drawn (the last SHOWN_KEPT). */
    this.framesShown = [];
    /** Per stream: [t, received] of the last RATE_WINDOW_S seconds. */
    this.history = {};
    this.rates = {};
    this.status = null;
    this.since = -1;
  }

  noteShown(drawn) {
    this.framesShown.push(drawn);
    if (this.framesShown.length > 2 * SHOWN_KEPT) this.framesShown.splice(0, SHOWN_KEPT);
  }

  sensorName(i) {
    const sensor = this.document.summary.realsense.sensors[i];
    return sensor ? sensor.name : `sensor ${i}`;
  }

  seek() {}

  build(root) {
    const device = this.document.device;
    const title = el('header', {},
      el('h1', {}, `${device.Name || 'camera'} ${device['Serial Number'] || ''}`),
      el('span', { class: 'facts' }, `live · librealsense ${this.document.library.version} · ${this.document.streams.length} streams`));
    this.recordButton = el('button', { id: 'record', type: 'button', onclick: () => this.toggleRecording() }, 'Record');
    this.recordStatus = el('span', { id: 'record-status' }, `recordings go to ${this.document.record_to.dir} (.${this.document.record_to.format})`);
    const near = el('input', { id: 'depth-near', type: 'number', step: 0.1, min: 0, value: this.depthRange.near });
    const far = el('input', { id: 'depth-far', type: 'number', step: 0.1, min: 0, value: this.depthRange.far });
    const range = () => {
      const [n, f] = [Number(near.value), Number(far.value)];
      if (f > n && n >= 0) this.depthRange = { near: n, far: f };
    };
    near.addEventListener('change', range);
    far.addEventListener('change', range);
    this.rateTable = el('div', { id: 'live-rates' });
    this.recordings = el('ul', { id: 'recordings' });
    const plots = el('div', { id: 'plots' }, this.plots.map((p) => p.node));
    if (this.plots.length === 0) plots.append(el('p', {}, 'The camera streams no IMU.'));
    new ResizeObserver(() => {
      const width = Math.max(300, plots.clientWidth - 20);
      for (const plot of this.plots) plot.resize(width);
    }).observe(plots);
    const pictures = el('div', { id: 'pictures' }, this.views.map((v) => v.figure));
    if (this.views.length === 0) pictures.append(el('p', {}, 'The camera streams no video.'));
    root.append(title,
      el('div', { id: 'controls' }, this.recordButton, this.recordStatus, el('label', {}, 'depth from ', near, ' to ', far, ' m')),
      pictures,
      el('h2', {}, 'Streams'), this.rateTable,
      el('h2', {}, 'IMU'), plots,
      el('h2', {}, 'Recordings'), this.recordings,
      el('div', { class: 'panels' }, devicePanel(this.document, this)));
    for (const view of this.views) view.run();
    this.poll();
  }

  async poll() {
    for (;;) {
      try {
        const reply = await fetch(`api/live/status?since=${this.since}`);
        if (!reply.ok) throw new Error(await reply.text());
        this.update(await reply.json());
      } catch (error) {
        this.recordStatus.textContent = `the camera's status: ${error.message || error}`;
      }
      await sleep(STATUS_EVERY_MS);
    }
  }

  /** Take in the status: rates, drops, IMU samples, the recording. */
  update(status) {
    this.status = status;
    const rows = this.document.streams.map((s) => {
      const counts = status.streams[s.key];
      const history = (this.history[s.key] ||= []);
      history.push([status.t, counts.received]);
      while (history.length > 2 && history[1][0] <= status.t - RATE_WINDOW_S) history.shift();
      const [t0, n0] = history[0];
      this.rates[s.key] = status.t > t0 ? (counts.received - n0) / (status.t - t0) : 0;
      if (counts.samples && counts.samples.t.length) this.since = Math.max(this.since, ...counts.samples.t);
      return [s.key, s.format, s.width ? `${s.width}×${s.height}` : '-', s.fps, short(this.rates[s.key], 1),
        counts.received, counts.missed, s.kind === 'motion' ? '-' : counts.not_shown];
    });
    this.rateTable.replaceChildren(table(['stream', 'format', 'size', 'fps', 'measured fps', 'frames',
      'dropped by the camera', 'not shown'], rows, { id: 'rate-table' }));
    for (const plot of this.plots) plot.add(status.streams[plot.stream.key].samples, status.t);
    this.showRecording(status);
  }

  showRecording(status) {
    const recording = status.recording;
    if (recording && recording.path) {
      const counts = Object.values(recording.streams);
      const written = counts.reduce((sum, c) => sum + c.written, 0);
      const dropped = counts.reduce((sum, c) => sum + c.dropped, 0);
      this.recordStatus.textContent = `recording ${recording.path}: ${short(recording.elapsed_s, 1)} s, ${written} frames, ${dropped} dropped${recording.failure ? `: ${recording.failure}` : ''}`;
      this.recordButton.textContent = 'Stop recording';
    } else if (!recording) {
      this.recordButton.textContent = 'Record';
    }
    this.recordButton.disabled = Boolean(recording && recording.busy);
    if (status.playback_finished) this.recordStatus.textContent = 'the simulated camera played its recording to the end';
    this.recordings.replaceChildren(...status.finished.map((f) => el('li', { 'data-path': f.path },
      f.error ? `${f.path}: ${f.error}` : `${f.path}: ${short(f.duration_s, 2)} s, ${Object.values(f.streams).reduce((s, c) => s + c.written, 0)} frames, ${f.bytes} bytes`)));
  }

  async toggleRecording() {
    const recording = this.status && this.status.recording;
    this.recordButton.disabled = true;
    try {
      const said = await postRecord(recording ? 'stop' : 'start');
      this.recordStatus.textContent = recording ? `wrote ${said.path}` : `recording ${said.path}`;
      this.recordButton.textContent = recording ? 'Record' : 'Stop recording';
      this.status = { ...this.status, recording: recording ? null : said };
    } catch (error) {
      this.recordStatus.textContent = String(error.message || error);
    }
    this.recordButton.disabled = false;
  }

  /** The page's state, for tests and the console. */
  state() {
    return {
      live: true,
      document: this.document,
      status: this.status,
      rates: this.rates,
      shown: Object.fromEntries(this.views.filter((v) => v.shown).map((v) => [v.stream.key, v.shown])),
      framesShown: this.framesShown,
      plots: Object.fromEntries(this.plots.map((p) => [p.stream.key, p.chart])),
    };
  }
}

/** The live viewer of the camera the server streams. */
export async function startLive(root, tooltip) {
  const reply = await fetch('api/live');
  if (!reply.ok) throw new Error(`the camera: ${await reply.text()}`);
  const viewer = new LiveViewer(await reply.json(), tooltip);
  viewer.build(root);
  return viewer;
}
