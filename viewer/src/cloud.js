// The 3D view: the coloured point cloud of the depth frame under the
// cursor, drawn with three.js (WebGL), turned with the mouse (drag to
// orbit, wheel to zoom, right-drag to pan). The server makes the cloud
// (cli/src/view/cloud.rs: the vertices and colours of `rsbag convert --to
// ply`); this only draws it.
//
// It opens looking from the depth camera (x right, y down, z forward: the
// cloud looks like the depth picture), turning about the cloud's median
// depth. A page with several depth streams (a session's cameras) shows
// one at a time, chosen beside the title; another is looked at from its
// own camera. `project` and `matrices` give where a point of the cloud lands on
// the canvas, for the browser tests and the console.

import * as THREE from 'three';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';
import { el, lastAtOrBefore, short } from './util.js';

/** Pixels of the canvas a vertex covers at most (whatever the zoom). */
const MAX_POINT_SIZE = 8;

/** A cloud as the server sends it: a u32 header length, a JSON header
 * (padded to 4 bytes), `count` vertices (3 f32), then their colours (3
 * bytes). */
export function decodeCloud(buffer) {
  const headerLength = new DataView(buffer).getUint32(0, true);
  const header = JSON.parse(new TextDecoder().decode(new Uint8Array(buffer, 4, headerLength)));
  const start = 4 + headerLength;
  const positions = new Float32Array(buffer, start, 3 * header.count);
  const colors = new Uint8Array(buffer, start + 12 * header.count, 3 * header.count);
  return { header, positions, colors };
}

export class CloudView {
  constructor(recording, source, viewer) {
    const depths = recording.streams.filter((s) => s.kind === 'depth');
    this.stream = depths[0];
    this.source = source;
    this.viewer = viewer;
    this.canvas = el('canvas', { id: 'cloud-canvas', class: 'cloud' });
    this.caption = el('div', { class: 'frame-info', id: 'cloud-info' }, 'loading…');
    const reset = el('button', { type: 'button', id: 'cloud-reset', title: 'look from the depth camera again',
      onclick: () => this.resetView() }, 'reset view');
    let title = this.stream ? this.stream.key : '';
    if (depths.length > 1) {
      title = el('select', { id: 'cloud-stream', title: 'the depth stream shown in 3D' },
        depths.map((s) => el('option', { value: s.key }, s.key)));
      title.addEventListener('change', () => this.choose(title.value));
    }
    this.depths = depths;
    this.node = el('figure', { class: 'cloud', id: 'cloud' },
      el('figcaption', {}, '3D · ', title, ' ', reset), this.canvas, this.caption);
    /** The frame asked for last, not yet being fetched; the one being
     * fetched (each with its stream's key); whether fetching. */
    this.wanted = null;
    this.pending = null;
    this.loading = false;
    /** The cloud drawn: header, positions, colours, and its query. */
    this.shown = null;
    this.three = null;
  }

  /** The scene, camera and controls, made on the first cloud (a page
   * without WebGL says so in the caption). */
  setUp() {
    // Exact colours: no antialiasing, no colour-space conversion.
    const renderer = new THREE.WebGLRenderer({ canvas: this.canvas, antialias: false, preserveDrawingBuffer: true });
    renderer.outputColorSpace = THREE.LinearSRGBColorSpace;
    renderer.setPixelRatio(window.devicePixelRatio || 1);
    renderer.setClearColor(0x222222);
    const camera = new THREE.PerspectiveCamera(60, 1, 0.01, 1000);
    camera.up.set(0, -1, 0);
    const controls = new OrbitControls(camera, this.canvas);
    controls.addEventListener('change', () => this.render());
    const scene = new THREE.Scene();
    const material = new THREE.PointsMaterial({ vertexColors: true, sizeAttenuation: false });
    const points = new THREE.Points(new THREE.BufferGeometry(), material);
    scene.add(points);
    this.three = { renderer, camera, controls, scene, points };
  }

  /** Fit the canvas, the camera's field of view and the points' size to
   * the depth stream of `header` (its picture's shape and lens). */
  fit(header) {
    const { renderer, camera, points } = this.three;
    const width = Math.max(200, Math.min(960, this.node.clientWidth || 640));
    const height = Math.round((width * header.height) / Math.max(1, header.width));
    renderer.setSize(width, height);
    const fy = header.intrinsics ? header.intrinsics.fy : header.height;
    camera.fov = (2 * Math.atan(header.height / 2 / fy) * 180) / Math.PI;
    camera.aspect = width / height;
    camera.updateProjectionMatrix();
    points.material.size = Math.min(MAX_POINT_SIZE, Math.max(1, Math.round(width / Math.max(1, header.width / header.step))));
  }

  /** Show depth stream `key` (of `this.depths`) from now on, from its own
   * camera. */
  choose(key) {
    const stream = this.depths.find((s) => s.key === key);
    if (!stream || stream === this.stream) return;
    this.stream = stream;
    this.showTime(this.viewer.time, performance.now());
  }

  /** Look from the depth camera, turning about the cloud's median depth. */
  resetView() {
    if (!this.three || !this.shown) return;
    const { camera, controls } = this.three;
    const depths = [];
    for (let i = 2; i < this.shown.positions.length; i += 3) depths.push(this.shown.positions[i]);
    depths.sort((a, b) => a - b);
    const middle = depths.length ? depths[depths.length >> 1] : 1;
    camera.position.set(0, 0, 0);
    controls.target.set(0, 0, middle);
    camera.lookAt(controls.target);
    controls.update();
    this.render();
  }

  render() {
    if (this.three) this.three.renderer.render(this.three.scene, this.three.camera);
  }

  /** Show the cloud of the depth frame at time t (the latest at or
   * before it). */
  showTime(t, askedAt) {
    if (!this.stream) return;
    const times = this.stream.frames.t;
    if (times.length === 0) return;
    const index = Math.max(0, lastAtOrBefore(times, t));
    const query = this.viewer.depth.query();
    const { key } = this.stream;
    const latest = this.wanted || this.pending || this.shown;
    if (latest && latest.key === key && latest.index === index && latest.query === query) return;
    this.wanted = { key, index, query, askedAt };
    this.load();
  }

  /** The depth settings changed: show the cloud again with them. */
  settingsChanged() {
    this.showTime(this.viewer.time, performance.now());
  }

  async load() {
    if (this.loading) return;
    this.loading = true;
    while (this.wanted) {
      const wanted = this.wanted;
      this.wanted = null;
      this.pending = wanted;
      try {
        const cloud = await this.source.cloud(wanted.key, wanted.index, wanted.query);
        if (!this.wanted) this.draw(cloud, wanted);
      } catch (error) {
        this.caption.textContent = String(error.message || error);
      }
      this.pending = null;
    }
    this.loading = false;
  }

  /** Draw `cloud`, the one `asked` for (its stream's key, index and depth
   * settings). */
  draw(cloud, asked) {
    const first = !this.three;
    if (first) this.setUp();
    // Another stream (or the first): its own camera's view.
    const fresh = first || this.shown.key !== asked.key;
    if (fresh) this.fit(cloud.header);
    const { points } = this.three;
    points.geometry.dispose();
    const geometry = new THREE.BufferGeometry();
    geometry.setAttribute('position', new THREE.BufferAttribute(cloud.positions, 3));
    geometry.setAttribute('color', new THREE.BufferAttribute(cloud.colors, 3, true));
    points.geometry = geometry;
    this.shown = { ...cloud, key: asked.key, index: asked.index, query: asked.query };
    if (fresh) this.resetView();
    else this.render();
    const { header } = cloud;
    const colour = header.color ? `colours of ${header.color.stream} frame #${header.color.number}`
      : 'colours of the depth (no colour stream)';
    const step = header.step > 1 ? ` (every ${header.step}th pixel)` : '';
    this.caption.textContent = `${header.count} points${step} · ${header.stream} frame #${header.number} · ${short(header.t, 6)} s · ${colour}`;
    this.canvas.dataset.index = header.index;
  }

  /** Where point [x, y, z] (metres, depth camera coordinates) lands on
   * the canvas: x, y in the canvas's pixels (from its top left), and its
   * depth in normalized device coordinates (-1 near to 1 far). */
  project([x, y, z]) {
    const { camera } = this.three;
    camera.updateMatrixWorld();
    const v = new THREE.Vector3(x, y, z).project(camera);
    return { x: ((v.x + 1) / 2) * this.canvas.width, y: ((1 - v.y) / 2) * this.canvas.height, depth: v.z };
  }

  /** The camera's matrices (column-major), the canvas's size in pixels
   * and the size of a point in pixels. */
  matrices() {
    const { camera, points, renderer } = this.three;
    camera.updateMatrixWorld();
    return {
      projection: camera.projectionMatrix.toArray(),
      view: camera.matrixWorldInverse.toArray(),
      width: this.canvas.width,
      height: this.canvas.height,
      point_size: points.material.size * renderer.getPixelRatio(),
    };
  }

  settled() {
    return !this.loading && !this.wanted;
  }
}
