// The page of `rsbag view`: a recording's frames, timeline, plots and
// structure. Served by `rsbag view FILE`, or inlined into the one file of
// `rsbag view FILE --export report.html`. Served by `rsbag view --camera`,
// a camera live instead (see live.js). Several recordings viewed as one
// session (`rsbag view A.bag B.db3 ...`) have a document of the same shape
// whose streams are a lane per camera and stream on the session's clock,
// and a `session` (see session.js).
//
// `window.rsbagViewer` is the page's state, for the browser tests and for
// anyone at the console: the recording's document, the time shown, the
// frames shown, the timeline's marks and the plots.

import { CloudView } from './cloud.js';
import { DepthSettings } from './depth.js';
import { Pictures } from './frames.js';
import { startLive } from './live.js';
import { devicePanel, streamsPanel, structurePanel } from './panels.js';
import { Plots } from './plots.js';
import { camerasPanel, damagePanel, syncPanel } from './session.js';
import { openSource } from './source.js';
import { Timeline } from './timeline.js';
import { el, lastAtOrBefore, short } from './util.js';

const SPEEDS = [0.1, 0.25, 0.5, 1, 2, 4, 8];
/** Pictures drawn that the page keeps a note of (see `noteShown`). */
const FRAMES_KEPT = 10000;
/** Steps of the scrubber: fine enough for any frame rate. */
const SCRUB_STEPS = 100000;

class Tooltip {
  constructor() {
    this.node = el('div', { id: 'tooltip', hidden: '' });
    document.body.append(this.node);
  }

  show(event, lines) {
    this.node.replaceChildren(...lines.map((line) => el('div', {}, line)));
    this.node.hidden = false;
    const x = Math.min(event.clientX + 14, window.innerWidth - this.node.offsetWidth - 8);
    this.node.style.left = `${x + window.scrollX}px`;
    this.node.style.top = `${event.clientY + 14 + window.scrollY}px`;
  }

  hide() {
    this.node.hidden = true;
  }
}

class Viewer {
  constructor(source) {
    this.source = source;
    this.recording = source.recording;
    /** What only a session of several recordings has (null for one). */
    this.session = this.recording.session || null;
    this.duration = this.recording.duration_s;
    this.time = 0;
    this.playing = false;
    this.speed = 1;
    this.depthRange = { near: 0.3, far: 4 };
    /** Every frame drawn: stream, index and the time from asking to drawn. */
    this.framesShown = [];
    this.tooltip = new Tooltip();
    const depthStreams = this.recording.streams.filter((s) => s.kind === 'depth');
    this.depth = new DepthSettings(() => this.depthSettingsChanged(),
      depthStreams.length > 0 && depthStreams.every((s) => s.stereo_baseline_mm != null));
    this.depth.range = this.depthRange;
    this.pictures = new Pictures(this.recording, source, this);
    this.cloud = new CloudView(this.recording, source, this);
    this.timeline = new Timeline(this.recording, this);
    this.plots = new Plots(this.recording, this);
  }

  /** Keep what was drawn (the last FRAMES_KEPT pictures: a long play
   * does not grow the page's memory without end). */
  noteShown(drawn) {
    this.framesShown.push(drawn);
    if (this.framesShown.length > 2 * FRAMES_KEPT) this.framesShown.splice(0, FRAMES_KEPT);
  }

  /** The name of sensor `i` of the recording, or of the session's camera
   * named `camera`. */
  sensorName(i, camera) {
    const summary = camera === undefined ? this.recording.summary
      : ((this.session.cameras.find((c) => c.name === camera) || {}).summary);
    const rs = summary && summary.realsense;
    return rs && rs.sensors[i] ? rs.sensors[i].name : `sensor ${i}`;
  }

  build(root) {
    const report = this.source.live ? '' : ' · report: thumbnails only';
    let facts;
    let panels;
    if (this.session) {
      const s = this.session.summary;
      facts = `session on ${s.clock} · ${short(this.duration, 3)} s · ${s.cameras.length} cameras · ${this.recording.streams.length} streams${report}`;
      panels = [camerasPanel(this.session), syncPanel(this.session), damagePanel(this.recording)];
      // Every camera's pictures side by side.
      this.pictures.node.classList.add('session');
    } else {
      facts = `${this.recording.summary.format} · ${short(this.duration, 3)} s · ${this.recording.streams.length} streams${report}`;
      panels = [devicePanel(this.recording, this), streamsPanel(this.recording), structurePanel(this.recording)];
    }
    const title = el('header', {},
      el('h1', {}, this.recording.file || 'recording'),
      el('span', { class: 'facts' }, facts));
    root.append(title, this.controls(), this.pictures.node, this.cloud.stream ? this.cloud.node : null,
      el('h2', {}, 'Timeline'), this.timeline.node,
      el('h2', {}, 'IMU and pose'), this.plots.node,
      el('div', { class: 'panels' }, panels));
    this.timeline.draw();
    this.seek(0);
  }

  controls() {
    this.playButton = el('button', { id: 'play', type: 'button', onclick: () => (this.playing ? this.pause() : this.play()) }, 'Play');
    const speed = el('select', { id: 'speed', title: 'playback speed' },
      SPEEDS.map((v) => el('option', v === 1 ? { value: v, selected: '' } : { value: v }, `${v}×`)));
    speed.addEventListener('change', () => {
      this.speed = Number(speed.value);
    });
    this.scrubber = el('input', { id: 'scrubber', type: 'range', min: 0, max: SCRUB_STEPS, value: 0, step: 1 });
    this.scrubber.addEventListener('input', () => this.seek((this.scrubber.value / SCRUB_STEPS) * this.duration));
    this.timeLabel = el('span', { id: 'time' });
    const near = el('input', { id: 'depth-near', type: 'number', step: 0.1, min: 0, value: this.depthRange.near });
    const far = el('input', { id: 'depth-far', type: 'number', step: 0.1, min: 0, value: this.depthRange.far });
    const range = () => {
      const [n, f] = [Number(near.value), Number(far.value)];
      if (f > n && n >= 0) {
        this.depthRange = { near: n, far: f };
        this.depth.setRange(this.depthRange);
      }
    };
    near.addEventListener('change', range);
    far.addEventListener('change', range);
    const previous = el('button', { id: 'previous-frame', type: 'button', title: 'previous frame (←)', onclick: () => this.step(-1) }, '◀');
    const next = el('button', { id: 'next-frame', type: 'button', title: 'next frame (→)', onclick: () => this.step(1) }, '▶');
    document.addEventListener('keydown', (e) => this.key(e));
    return el('div', { id: 'controls' }, this.playButton, previous, next, speed, this.scrubber, this.timeLabel,
      el('label', {}, 'depth from ', near, ' to ', far, ' m'), this.source.live ? this.depth.controls() : null);
  }

  /** Show depth again as its settings now say (colours, filters). */
  depthSettingsChanged() {
    this.pictures.settingsChanged();
    this.cloud.settingsChanged();
  }

  /** Move the cursor to the next (1) or previous (-1) change of the
   * pictures: forward, the first time a video stream shows the frame after
   * the one it shows; back, the last time before the cursor at which one
   * of them began showing a frame. */
  step(direction) {
    this.pause();
    const candidates = this.pictures.views.map((view) => {
      const times = view.stream.frames.t;
      const shown = lastAtOrBefore(times, this.time);
      if (direction > 0) return times[Math.max(0, shown) + 1];
      return times[shown] < this.time ? times[shown] : times[shown - 1];
    }).filter((t) => t !== undefined);
    if (candidates.length) this.seek(direction > 0 ? Math.min(...candidates) : Math.max(...candidates));
  }

  /** Space plays or pauses, ← and → step a frame, Home and End go to the
   * start and the end (not while typing in a field). */
  key(event) {
    if (['INPUT', 'SELECT', 'TEXTAREA', 'BUTTON'].includes(event.target.tagName) && event.target.type !== 'range') return;
    const actions = {
      ' ': () => (this.playing ? this.pause() : this.play()),
      ArrowLeft: () => this.step(-1),
      ArrowRight: () => this.step(1),
      Home: () => this.seek(0),
      End: () => this.seek(this.duration),
    };
    const action = actions[event.key];
    if (!action) return;
    event.preventDefault();
    action();
  }

  /** Show the recording at t seconds from its first frame. */
  seek(t) {
    this.time = Math.min(this.duration, Math.max(0, t));
    const askedAt = performance.now();
    this.scrubber.value = this.duration > 0 ? Math.round((this.time / this.duration) * SCRUB_STEPS) : 0;
    const clock = this.session ? ` on ${this.session.summary.clock}` : '';
    this.timeLabel.textContent = `${this.time.toFixed(3)} s of ${this.duration.toFixed(3)} s${clock}`;
    this.pictures.showTime(this.time, askedAt);
    this.cloud.showTime(this.time, askedAt);
    this.timeline.drawCursor();
    this.plots.showTime(this.time);
  }

  play() {
    if (this.time >= this.duration) this.seek(0);
    this.playing = true;
    this.playButton.textContent = 'Pause';
    let last = performance.now();
    const tick = (now) => {
      if (!this.playing) return;
      this.seek(this.time + ((now - last) / 1000) * this.speed);
      last = now;
      if (this.time >= this.duration) this.pause();
      else requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  }

  pause() {
    this.playing = false;
    this.playButton.textContent = 'Play';
  }

  /** The page's state, for tests and the console. */
  state() {
    return {
      recording: this.recording,
      time: this.time,
      playing: this.playing,
      shown: this.pictures.shown(),
      settled: this.pictures.settled() && this.cloud.settled(),
      framesShown: this.framesShown,
      marks: this.timeline.marks,
      plots: this.plots.charts(),
    };
  }
}

async function start() {
  const root = document.getElementById('app');
  try {
    if (root.dataset.live) {
      window.rsbagViewer = await startLive(root, new Tooltip());
    } else {
      const viewer = new Viewer(await openSource());
      viewer.build(root);
      window.rsbagViewer = viewer;
    }
    document.body.dataset.ready = 'true';
  } catch (error) {
    root.replaceChildren(el('p', { class: 'error' }, `The viewer could not start: ${error.message || error}`));
    document.body.dataset.ready = 'error';
  }
}

start();
