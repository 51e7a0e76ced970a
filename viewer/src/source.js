// Where the page's data comes from: the `rsbag view` server, or the
// report inlined into an exported page (no network at all).

import { decodeCloud } from './cloud.js';

/** A frame as the server sends it (cli/src/view/payload.rs): a u32 header
 * length, a JSON header, then the pixels (and, for depth in
 * librealsense's colours, the colours). */
export function decodeFrame(buffer) {
  const view = new DataView(buffer);
  const headerLength = view.getUint32(0, true);
  const headerBytes = new Uint8Array(buffer, 4, headerLength);
  const header = JSON.parse(new TextDecoder().decode(headerBytes));
  const all = new Uint8Array(buffer, 4 + headerLength);
  if (!header.colors) return { header, pixels: all };
  const values = 2 * header.width * header.height;
  return { header, pixels: all.subarray(0, values), colors: all.subarray(values) };
}

function base64Bytes(text) {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes.buffer;
}

/** Frames from the server, fetched as they are asked for. */
class ServerSource {
  constructor(recording) {
    this.recording = recording;
    this.live = true;
  }

  /** The frame, at most maxWidth pixels wide when given; `query`: the
   * depth settings' parameters (see depth.js). */
  async frame(stream, index, maxWidth = null, query = '') {
    const narrower = maxWidth ? `&max_width=${maxWidth}` : '';
    const url = `api/frame?stream=${encodeURIComponent(stream)}&index=${index}${narrower}${query}`;
    const reply = await fetch(url);
    if (!reply.ok) throw new Error(`${stream} frame ${index}: ${await reply.text()}`);
    return decodeFrame(await reply.arrayBuffer());
  }

  /** The point cloud of a depth frame (see cloud.js). */
  async cloud(stream, index, query = '') {
    const url = `api/cloud?stream=${encodeURIComponent(stream)}&index=${index}${query}`;
    const reply = await fetch(url);
    if (!reply.ok) throw new Error(`${stream} point cloud ${index}: ${await reply.text()}`);
    return decodeCloud(await reply.arrayBuffer());
  }
}

/** Frames inlined in a report: the thumbnail at or before the one asked
 * for. */
class ReportSource {
  constructor(report) {
    this.recording = report.recording;
    this.live = false;
    this.frames = {};
    for (const [stream, encoded] of Object.entries(report.frames)) {
      this.frames[stream] = encoded.map((text) => decodeFrame(base64Bytes(text)));
    }
    this.clouds = {};
    for (const [stream, encoded] of Object.entries(report.clouds || {})) {
      this.clouds[stream] = encoded.map((text) => decodeCloud(base64Bytes(text)));
    }
  }

  /** The cloud at or before the one asked for. */
  async cloud(stream, index) {
    const clouds = this.clouds[stream] || [];
    const chosen = clouds.filter((c) => c.header.index <= index).pop() || clouds[0];
    if (!chosen) throw new Error(`the report holds no point cloud of ${stream}`);
    return chosen;
  }

  async frame(stream, index) {
    const frames = this.frames[stream] || [];
    let chosen = frames[0];
    for (const frame of frames) {
      if (frame.header.index <= index) chosen = frame;
    }
    if (!chosen) throw new Error(`the report holds no frame of ${stream}`);
    return chosen;
  }
}

/** The source of this page. */
export async function openSource() {
  const inlined = document.getElementById('rsbag-report');
  if (inlined) return new ReportSource(JSON.parse(inlined.textContent));
  const reply = await fetch('api/recording');
  if (!reply.ok) throw new Error(`the recording: ${await reply.text()}`);
  return new ServerSource(await reply.json());
}
