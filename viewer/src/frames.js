// The pictures of every video stream at the cursor's time: depth
// colourised (with a legend in metres), colour, infrared; what a frame is
// and the pixel under the mouse shown on hover.

import { JET, LEGEND_STEPS, step } from './colormap.js';
import { el, lastAtOrBefore, short } from './util.js';

let colours = { key: '', table: null };

/** The RGBA colour of every depth value (as one little-endian word, as
 * the canvas's bytes are read on every platform browsers run on), made
 * once per depth unit and range. */
function depthColours(units, { near, far }) {
  const key = `${units} ${near} ${far}`;
  if (colours.key !== key) {
    const table = new Uint32Array(65536);
    const bytes = new Uint8Array(table.buffer);
    bytes[3] = 255;
    for (let d = 1; d < 65536; d++) {
      const [r, g, b] = JET[step(d * units, near, far)];
      bytes[4 * d] = r;
      bytes[4 * d + 1] = g;
      bytes[4 * d + 2] = b;
      bytes[4 * d + 3] = 255;
    }
    colours = { key, table };
  }
  return colours.table;
}

/** RGBA pixels of a decoded frame (one pass, no allocation per pixel:
 * a 1280x720 frame is drawn in a few milliseconds). */
export function rgba(frame, depthRange) {
  const { header, pixels } = frame;
  const count = header.width * header.height;
  const out = new Uint8ClampedArray(count * 4);
  switch (header.layout) {
    case 'depth16': {
      if (frame.colors) return rgbImage(frame.colors, header);
      const table = depthColours(header.depth_units, depthRange);
      const words = new Uint32Array(out.buffer);
      for (let i = 0; i < count; i++) words[i] = table[pixels[2 * i] | (pixels[2 * i + 1] << 8)];
      break;
    }
    case 'gray16':
      for (let i = 0; i < count; i++) {
        out[4 * i] = out[4 * i + 1] = out[4 * i + 2] = pixels[2 * i + 1];
        out[4 * i + 3] = 255;
      }
      break;
    case 'gray8':
      for (let i = 0; i < count; i++) {
        out[4 * i] = out[4 * i + 1] = out[4 * i + 2] = pixels[i];
        out[4 * i + 3] = 255;
      }
      break;
    case 'rgb8':
      for (let i = 0; i < count; i++) {
        out[4 * i] = pixels[3 * i];
        out[4 * i + 1] = pixels[3 * i + 1];
        out[4 * i + 2] = pixels[3 * i + 2];
        out[4 * i + 3] = 255;
      }
      break;
    case 'rgba8':
      out.set(pixels.subarray(0, count * 4));
      break;
    default:
      out.fill(255);
  }
  return new ImageData(out, header.width, header.height);
}

/** An image of RGB8 bytes. */
function rgbImage(rgb, { width, height }) {
  const out = new Uint8ClampedArray(width * height * 4);
  for (let i = 0; i < width * height; i++) {
    out[4 * i] = rgb[3 * i];
    out[4 * i + 1] = rgb[3 * i + 1];
    out[4 * i + 2] = rgb[3 * i + 2];
    out[4 * i + 3] = 255;
  }
  return new ImageData(out, width, height);
}

/** The value of the pixel at (x, y), in words. */
export function pixelText(frame, x, y) {
  const { header, pixels } = frame;
  const i = y * header.width + x;
  const data = new DataView(pixels.buffer, pixels.byteOffset, pixels.byteLength);
  switch (header.layout) {
    case 'depth16': {
      const d = data.getUint16(2 * i, true);
      return d === 0 ? 'no depth' : `${(d * header.depth_units).toFixed(4)} m (${d})`;
    }
    case 'gray16':
      return `${data.getUint16(2 * i, true)}`;
    case 'gray8':
      return `${pixels[i]}`;
    case 'rgb8':
      return `RGB ${pixels[3 * i]}, ${pixels[3 * i + 1]}, ${pixels[3 * i + 2]}`;
    case 'rgba8':
      return `RGBA ${Array.from(pixels.slice(4 * i, 4 * i + 4)).join(', ')}`;
    default:
      return '';
  }
}

/** One stream's picture and what is known of the frame shown. */
class StreamView {
  constructor(stream, source, viewer) {
    this.stream = stream;
    this.source = source;
    this.viewer = viewer;
    this.canvas = el('canvas', { class: 'frame', 'data-stream': stream.key });
    this.caption = el('div', { class: 'frame-info', 'data-stream': stream.key }, 'loading…');
    this.figure = el('figure', { class: 'stream', 'data-stream': stream.key },
      el('figcaption', {}, `${stream.key} · ${stream.format} ${stream.width}×${stream.height}`),
      this.canvas, this.caption);
    if (stream.kind === 'depth') {
      this.legend = el('canvas', { class: 'legend', width: LEGEND_STEPS, height: 1, 'data-stream': stream.key });
      this.legendLabels = el('div', { class: 'legend-labels' });
      this.figure.append(this.legend, this.legendLabels);
    }
    /** The frame asked for last, not yet being fetched. */
    this.wanted = null;
    /** The frame being fetched. */
    this.pending = null;
    /** Nothing shown: the moment is before the stream's first frame. */
    this.blank = null;
    this.loading = false;
    this.shown = null;
    this.canvas.addEventListener('mousemove', (e) => this.hover(e));
    this.canvas.addEventListener('mouseleave', () => viewer.tooltip.hide());
  }

  /** Show the frame at time t (the latest at or before it; in a session,
   * none before the camera's first frame: index -1). */
  showTime(t, askedAt) {
    const times = this.stream.frames.t;
    if (times.length === 0) return;
    const at = lastAtOrBefore(times, t);
    const index = this.viewer.session ? at : Math.max(0, at);
    const latest = this.wanted || this.pending || (this.shown ? this.shown.header : this.blank);
    if (latest && latest.index === index) return;
    this.wanted = { index, askedAt };
    this.load();
  }

  /** How many pixels wide the picture appears: a preview as wide is as
   * sharp as the frame itself there. */
  shownWidth() {
    const width = this.canvas.clientWidth || this.figure.clientWidth || 480;
    return Math.ceil(width * (window.devicePixelRatio || 1));
  }

  /** Fetch and draw what is wanted, the latest first: a frame wider than
   * it appears comes first as a preview of that width (every n-th pixel
   * of every n-th row, a fraction of the bytes, so scrubbing stays
   * quick), then whole unless another frame was asked for meanwhile. */
  async load() {
    if (this.loading) return;
    this.loading = true;
    while (this.wanted) {
      const wanted = this.wanted;
      this.wanted = null;
      this.pending = wanted;
      if (wanted.index < 0) {
        this.clear();
        this.pending = null;
        continue;
      }
      try {
        const previewWidth = this.shownWidth();
        if (this.source.live && this.stream.width > previewWidth) {
          await this.fetchAndDraw(wanted, previewWidth);
        }
        if (!this.wanted) await this.fetchAndDraw(wanted, null);
      } catch (error) {
        this.caption.textContent = String(error.message || error);
      }
      this.pending = null;
    }
    this.loading = false;
  }

  async fetchAndDraw(wanted, maxWidth) {
    const fetchStart = performance.now();
    const query = this.stream.kind === 'depth' ? this.viewer.depth.query() : '';
    const frame = await this.source.frame(this.stream.key, wanted.index, maxWidth, query);
    frame.query = query;
    const drawStart = performance.now();
    // A whole frame that another frame was asked for over is not drawn.
    if (maxWidth === null && this.wanted) return;
    this.draw(frame);
    const drawn = performance.now();
    this.viewer.noteShown({
      stream: this.stream.key,
      index: frame.header.index,
      preview: frame.header.width < frame.header.full_width,
      latency_ms: drawn - wanted.askedAt,
      fetch_ms: drawStart - fetchStart,
      draw_ms: drawn - drawStart,
    });
  }

  /** Show no frame: the camera has not started at this moment. */
  clear() {
    this.shown = null;
    this.blank = { index: -1 };
    this.canvas.getContext('2d').clearRect(0, 0, this.canvas.width, this.canvas.height);
    delete this.canvas.dataset.index;
    delete this.canvas.dataset.number;
    this.caption.textContent = `no frame yet: the first is at ${short(this.stream.frames.t[0], 6)} s`;
  }

  draw(frame) {
    this.shown = frame;
    this.blank = null;
    const { header } = frame;
    if (this.canvas.width !== header.width || this.canvas.height !== header.height) {
      this.canvas.width = header.width;
      this.canvas.height = header.height;
    }
    this.canvas.getContext('2d').putImageData(rgba(frame, this.viewer.depthRange), 0, 0);
    this.canvas.dataset.index = header.index;
    this.canvas.dataset.number = header.number;
    // In a session, the frame's time on the session's clock, then in its
    // recording.
    const at = this.viewer.session
      ? `${short(this.stream.frames.t[header.index], 6)} s (${short(header.t, 6)} s in its recording)`
      : `${short(header.t, 6)} s`;
    this.caption.textContent = `frame #${header.number} · ${short(header.timestamp, 3)} ms (${header.domain}) · ${at}`;
    if (this.legend) this.drawLegend();
  }

  /** The legend of the colours shown: the page's map or librealsense's
   * (from the server); none for colours by histogram (equalized). */
  drawLegend() {
    const { near, far } = this.viewer.depthRange;
    const { header } = this.shown;
    const colours = header.colors ? header.legend : JET;
    this.legend.hidden = !colours;
    this.legendLabels.hidden = !colours;
    if (!colours) return;
    const context = this.legend.getContext('2d');
    const strip = new ImageData(colours.length, 1);
    colours.forEach(([r, g, b], i) => strip.data.set([r, g, b, 255], 4 * i));
    this.legend.width = colours.length;
    context.putImageData(strip, 0, 0);
    this.legend.dataset.near = near;
    this.legend.dataset.far = far;
    const marks = [0, 0.25, 0.5, 0.75, 1].map((f) => el('span', {}, `${short(near + f * (far - near), 2)} m`));
    this.legendLabels.replaceChildren(...marks);
  }

  redraw() {
    if (this.shown) this.draw(this.shown);
  }

  /** The depth settings changed: fetch the frame again if they change
   * what the server sends, else draw it again. */
  settingsChanged() {
    if (!this.shown) return;
    const query = this.viewer.depth.query();
    if (this.stream.kind !== 'depth' || this.shown.query === query) {
      this.redraw();
      return;
    }
    this.wanted = { index: this.shown.header.index, askedAt: performance.now() };
    this.load();
  }

  hover(event) {
    if (!this.shown) return;
    const { header } = this.shown;
    const box = this.canvas.getBoundingClientRect();
    const x = Math.floor(((event.clientX - box.left) / box.width) * header.width);
    const y = Math.floor(((event.clientY - box.top) / box.height) * header.height);
    if (x < 0 || y < 0 || x >= header.width || y >= header.height) return;
    // A preview holds every step-th pixel of every step-th row: the pixel
    // under the mouse is the frame's pixel (x * step, y * step).
    const step = Math.ceil(header.full_width / header.width);
    const where = step === 1 ? `${x}, ${y}` : `${x * step}, ${y * step} (preview: every ${step}th pixel)`;
    const lines = [
      `${header.stream} frame #${header.number} (${header.index + 1} of ${this.stream.frames.t.length})`,
      `timestamp ${short(header.timestamp, 3)} ms, ${header.domain}`,
      `pixel ${where}: ${pixelText(this.shown, x, y)}`,
      ...Object.entries(header.metadata).map(([key, value]) => `${key}: ${value}`),
    ];
    this.viewer.tooltip.show(event, lines);
  }
}

/** The pictures of every video stream. */
export class Pictures {
  constructor(recording, source, viewer) {
    this.views = recording.streams
      .filter((s) => s.kind === 'depth' || s.kind === 'image')
      .map((s) => new StreamView(s, source, viewer));
    this.node = el('div', { id: 'pictures' }, this.views.map((v) => v.figure));
    if (this.views.length === 0) this.node.append(el('p', {}, 'The recording has no video stream.'));
  }

  showTime(t, askedAt) {
    for (const view of this.views) view.showTime(t, askedAt);
  }

  redraw() {
    for (const view of this.views) view.redraw();
  }

  settingsChanged() {
    for (const view of this.views) view.settingsChanged();
  }

  /** The frame each stream shows, by stream key. */
  shown() {
    return Object.fromEntries(this.views.filter((v) => v.shown).map((v) => [v.stream.key, v.shown]));
  }

  /** Whether every stream shows the frame it was last asked for. */
  settled() {
    return this.views.every((v) => !v.loading && !v.wanted);
  }
}
