// How fast `rsbag view` shows the frame under the cursor: jumps of the
// scrubber to random places of a recording, and a drag across it, in
// headless Chromium; each time from the scrubber's input event to every
// video stream drawing the frame at the new time.
//
//   node viewer/bench/scrub.mjs [FILE] [--jumps 40]
//
// FILE defaults to target/bench-align/session.bag, the 1 GB LZ4 recording
// librealsense 2.55 writes for benches/compare_align.py (run that first).
// Uses target/release/rsbag (cargo build --release).

import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { statSync } from 'node:fs';
import { chromium } from 'playwright-core';

const args = process.argv.slice(2);
const jumpsAt = args.indexOf('--jumps');
const jumps = jumpsAt >= 0 ? Number(args[jumpsAt + 1]) : 40;
const file = args.find((a, i) => !a.startsWith('--') && i !== jumpsAt + 1) || 'target/bench-align/session.bag';

const started = performance.now();
const server = spawn('target/release/rsbag', ['view', file, '--no-browser'], { stdio: ['ignore', 'pipe', 'inherit'] });
const [line] = await once(createInterface({ input: server.stdout }), 'line');
const url = line.match(/http:\/\/\S+/)[0];
const startup = (performance.now() - started) / 1000;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
await page.goto(url);
await page.waitForFunction(() => document.body.dataset.ready === 'true', null, { timeout: 60000 });
const settle = () => page.waitForFunction(() => window.rsbagViewer.state().settled, null, { timeout: 60000, polling: 1 });
await settle();

/** Move the scrubber to `fraction` of the recording; resolves with the
 * times until every stream drew a picture of its frame there (a preview
 * as wide as it appears, for a frame wider) and until every stream drew
 * the whole frame (ms). */
async function jump(fraction) {
  await page.evaluate((f) => {
    const viewer = window.rsbagViewer;
    viewer.benchFrom = viewer.framesShown.length;
    const s = document.getElementById('scrubber');
    s.value = Math.round(f * Number(s.max));
    s.dispatchEvent(new Event('input'));
  }, fraction);
  await settle();
  return page.evaluate(() => {
    const viewer = window.rsbagViewer;
    const drawn = viewer.framesShown.slice(viewer.benchFrom);
    const streams = [...new Set(drawn.map((f) => f.stream))];
    const first = streams.map((s) => drawn.find((f) => f.stream === s).latency_ms);
    const whole = streams.map((s) => drawn.find((f) => f.stream === s && !f.preview).latency_ms);
    return { shown: Math.max(0, ...first), whole: Math.max(0, ...whole) };
  });
}

let seed = 12345;
const random = () => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed / 2147483648;
};
const times = [];
for (let i = 0; i < jumps; i++) times.push(await jump(random()));

// A drag: the scrubber moved every 16 ms across a tenth of the recording,
// then the time until the frames at the last place are drawn.
const drag = await page.evaluate(async () => {
  const s = document.getElementById('scrubber');
  const viewer = window.rsbagViewer;
  const from = Number(s.value);
  for (let k = 1; k <= 60; k++) {
    s.value = from + Math.round((k / 60) * Number(s.max) * 0.1);
    s.dispatchEvent(new Event('input'));
    await new Promise((r) => setTimeout(r, 16));
  }
  const last = performance.now();
  while (!viewer.state().settled) await new Promise((r) => setTimeout(r, 1));
  return performance.now() - last;
});

const videos = await page.evaluate(() => Object.keys(window.rsbagViewer.state().shown));
const parts = await page.evaluate(() => window.rsbagViewer.state().framesShown);
await browser.close();
server.kill('SIGINT');
const figures = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return `median ${at(0.5).toFixed(1)} ms, 90th percentile ${at(0.9).toFixed(1)} ms, slowest ${sorted[sorted.length - 1].toFixed(1)} ms`;
};
console.log(`${file}: ${(statSync(file).size / 1e9).toFixed(2)} GB; rsbag view ready to serve in ${startup.toFixed(2)} s`);
console.log(`video streams: ${videos.join(', ')}`);
console.log(`${jumps} jumps to random places: every video stream showing its frame there ${figures(times.map((t) => t.shown))}`);
console.log(`    ... and every frame drawn whole: ${figures(times.map((t) => t.whole))}`);
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
for (const stream of videos) {
  for (const preview of [true, false]) {
    const mine = parts.filter((p) => p.stream === stream && p.preview === preview);
    if (mine.length === 0) continue;
    console.log(`${stream} ${preview ? 'preview' : 'whole'}: fetching (request, reading, sending) ${median(mine.map((p) => p.fetch_ms)).toFixed(1)} ms, drawing ${median(mine.map((p) => p.draw_ms)).toFixed(1)} ms (medians)`);
  }
}
console.log(`drag (60 moves, 16 ms apart): the whole frames at the last place drawn ${drag.toFixed(1)} ms after the last move`);
