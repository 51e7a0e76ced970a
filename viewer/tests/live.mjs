// Drive the live page of `rsbag view --camera` in headless Chromium
// (Debian's, through playwright-core) and print what it showed as one JSON
// object, for cli/tests/view_live.rs to judge against the frames
// librealsense plays from the simulated camera's recording.
//
//   node live.mjs URL [--record-seconds S] [--screenshot FILE]
//
// Prints {errors, first, second, rates_first, rates_second, plots_first,
// plots_second, recorded: {path, …}, shown_while_recording: [{stream,
// number}], status}: `first` and `second` are the pictures shown a second
// apart (frame header, the values the page drew from as base64, the
// canvas's RGBA as base64); `plots_*` each IMU plot's x range and samples.

import { chromium } from 'playwright-core';

const args = process.argv.slice(2);
const url = args[0];
const option = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const recordSeconds = Number(option('--record-seconds') || 1.5);

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
const out = { errors: [] };
let page;
try {
  page = await (await browser.newContext({ viewport: { width: 1400, height: 1000 } })).newPage();
  page.on('pageerror', (e) => out.errors.push(String(e)));
  page.on('console', (m) => m.type() === 'error' && out.errors.push(m.text()));
  await page.goto(url);
  await page.waitForFunction(() => document.body.dataset.ready, null, { timeout: 30000 });
  if (await page.evaluate(() => document.body.dataset.ready) !== 'true') {
    out.text = await page.evaluate(() => document.body.innerText);
    throw new Error('the page did not start');
  }
  // Every video stream has drawn frames, every plot has samples.
  await page.waitForFunction(() => {
    const state = window.rsbagViewer.state();
    const videos = state.document.streams.filter((s) => s.kind === 'depth' || s.kind === 'image');
    const drawn = videos.every((s) => state.framesShown.filter((f) => f.stream === s.key).length >= 5);
    const plotted = Object.values(state.plots).every((chart) => chart.data[0].length > 10);
    return drawn && plotted && Object.keys(state.rates).length > 0;
  }, null, { timeout: 30000 });

  const pictures = () => page.evaluate(() => {
    const b64 = (bytes) => {
      let s = '';
      for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
      return btoa(s);
    };
    return Object.fromEntries(Object.entries(window.rsbagViewer.state().shown).map(([key, frame]) => {
      const canvas = document.querySelector(`canvas.frame[data-stream="${key}"]`);
      const rgba = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
      return [key, { header: frame.header, values: b64(frame.pixels), canvas: b64(new Uint8Array(rgba.buffer)) }];
    }));
  });
  const plots = () => page.evaluate(() => Object.fromEntries(Object.entries(window.rsbagViewer.state().plots)
    .map(([key, chart]) => [key, { min: chart.scales.x.min, max: chart.scales.x.max, t: chart.data[0], x: chart.data[1] }])));
  const rates = () => page.evaluate(() => ({ ...window.rsbagViewer.state().rates }));
  const table = () => page.$$eval('#rate-table tbody tr', (rows) => rows.map((r) => Array.from(r.cells).map((c) => c.textContent)));

  out.first = await pictures();
  out.plots_first = await plots();
  out.rates_first = await rates();
  out.table_first = await table();
  await page.waitForTimeout(1000);
  out.second = await pictures();
  out.plots_second = await plots();
  out.rates_second = await rates();
  out.table_second = await table();

  // Record from the page, then stop.
  await page.click('#record');
  await page.waitForFunction(() => {
    const status = window.rsbagViewer.state().status;
    return status.recording && status.recording.path && status.recording.streams;
  }, null, { timeout: 10000 });
  // Frames that came after the recording began (the server's clock).
  const began = await page.evaluate(() => window.rsbagViewer.state().status.recording.began_s);
  out.recording_text = await page.$eval('#record-status', (e) => e.textContent);
  await page.waitForTimeout(recordSeconds * 1000);
  const to = await page.evaluate(() => window.rsbagViewer.framesShown.length);
  await page.click('#record');
  await page.waitForFunction(() => window.rsbagViewer.state().status.finished.length === 1, null, { timeout: 10000 });
  out.shown_while_recording = await page.evaluate(([a, b]) => window.rsbagViewer.framesShown.slice(0, b)
    .filter((f) => f.t > a).map((f) => ({ stream: f.stream, number: f.number })), [began, to]);
  out.recorded = await page.evaluate(() => window.rsbagViewer.state().status.finished[0]);
  out.recordings = await page.$$eval('#recordings li', (items) => items.map((i) => i.textContent));
  const screenshot = option('--screenshot');
  if (screenshot) await page.screenshot({ path: screenshot, fullPage: true });
} catch (error) {
  out.failure = String(error.stack || error);
  // What the page knew then, to tell why.
  out.status = await page?.evaluate(() => window.rsbagViewer && window.rsbagViewer.state().status).catch(() => null);
} finally {
  await browser.close();
}
process.stdout.write(`${JSON.stringify(out)}\n`);
