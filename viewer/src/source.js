// Where the page's data comes from: the `rsbag view` server, or the
// report inlined into an exported page (no network at all).

/** A frame as the server sends it (cli/src/view/payload.rs): a u32 header
 * length, a JSON header, then the pixels. */
export function decodeFrame(buffer) {
  const view = new DataView(buffer);
  const headerLength = view.getUint32(0, true);
  const headerBytes = new Uint8Array(buffer, 4, headerLength);
  const header = JSON.parse(new TextDecoder().decode(headerBytes));
  const pixels = new Uint8Array(buffer, 4 + headerLength);
  return { header, pixels };
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

  /** The frame, at most maxWidth pixels wide when given. */
  async frame(stream, index, maxWidth = null) {
    const narrower = maxWidth ? `&max_width=${maxWidth}` : '';
    const url = `api/frame?stream=${encodeURIComponent(stream)}&index=${index}${narrower}`;
    const reply = await fetch(url);
    if (!reply.ok) throw new Error(`${stream} frame ${index}: ${await reply.text()}`);
    return decodeFrame(await reply.arrayBuffer());
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
