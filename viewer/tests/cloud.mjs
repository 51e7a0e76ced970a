// Drive the viewer's 3D view and depth colours in headless Chromium
// (Debian's, through playwright-core) and print what the page shows as
// one JSON object, for cli/tests/view_cloud.rs to judge against rsbag's
// PLY and librealsense's colorizer.
//
//   node cloud.mjs URL [--cloud-stream KEY] [--index K] [--schemes] [--filters] [--screenshot FILE]
//
// URL: a served page or an exported report (file:///…). --cloud-stream
// KEY: choose the depth stream KEY in the 3D view's list (a session's
// page: `CAMERA/Depth 0`), after its first cloud is drawn. --index K:
// show the 3D view's depth stream's K-th frame. Prints `cloud` (the cloud the page drew:
// its header, the camera's matrices and the canvas's pixels, read back
// from the WebGL canvas) as it opens and after a drag that turns it
// (`orbited`); with --schemes, the depth picture in each of
// librealsense's colour schemes, equalized and over 0.3-2.9 m; with
// --filters, the depth frame and its cloud with the decimation toggle on
// (`decimated`), then with every filter toggle on (`filtered`), each with
// the filter SPECs the page sent.

import { chromium } from 'playwright-core';

const args = process.argv.slice(2);
const url = args[0];
const option = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
const out = { errors: [] };
try {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  page.on('pageerror', (e) => out.errors.push(String(e)));
  page.on('console', (m) => m.type() === 'error' && out.errors.push(m.text()));
  await page.goto(url);
  await page.waitForFunction(() => document.body.dataset.ready, null, { timeout: 30000 });
  if (await page.evaluate(() => document.body.dataset.ready) !== 'true') throw new Error('the page did not start');
  const settle = () => page.waitForFunction(() => window.rsbagViewer.state().settled, null, { timeout: 30000 });
  await settle();
  const chosen = option('--cloud-stream');
  if (chosen !== undefined) {
    out.first_cloud = await page.evaluate(() => window.rsbagViewer.cloud.shown.header);
    out.cloud_streams = await page.$$eval('#cloud-stream option', (o) => o.map((e) => e.value));
    await page.selectOption('#cloud-stream', chosen);
    await settle();
  }
  const index = option('--index');
  if (index !== undefined) {
    await page.evaluate((k) => {
      const viewer = window.rsbagViewer;
      viewer.seek(viewer.cloud.stream.frames.t[k]);
    }, Number(index));
    await settle();
  }
  const b64 = `(bytes) => {
    let s = '';
    for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return btoa(s);
  }`;
  // The cloud drawn, the camera, and the canvas's pixels as drawn.
  const cloud = () => page.evaluate((encoder) => {
    const encode = eval(encoder);
    const view = window.rsbagViewer.cloud;
    const canvas = view.canvas;
    const copy = document.createElement('canvas');
    copy.width = canvas.width;
    copy.height = canvas.height;
    const context = copy.getContext('2d');
    context.drawImage(canvas, 0, 0);
    const pixels = context.getImageData(0, 0, copy.width, copy.height).data;
    return {
      header: view.shown.header,
      caption: document.getElementById('cloud-info').textContent,
      matrices: view.matrices(),
      canvas: { width: copy.width, height: copy.height, rgba: encode(new Uint8Array(pixels.buffer)) },
      projected: Array.from({ length: 5 }, (_, i) => {
        const k = Math.floor((i * view.shown.header.count) / 5);
        const point = Array.from(view.shown.positions.slice(3 * k, 3 * k + 3));
        return { point, at: view.project(point) };
      }),
    };
  }, b64);
  out.cloud = await cloud();

  // Drag across the canvas: the cloud turns about its middle.
  const box = await page.locator('#cloud-canvas').boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 + 120, box.y + box.height / 2 + 40, { steps: 8 });
  await page.mouse.up();
  out.orbited = await cloud();

  const depthShown = () => page.evaluate((encoder) => {
    const encode = eval(encoder);
    const [key, frame] = Object.entries(window.rsbagViewer.state().shown).find(([, f]) => f.header.layout === 'depth16');
    const canvas = document.querySelector(`canvas.frame[data-stream="${key}"]`);
    const pixels = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
    return { header: frame.header, values: encode(frame.pixels), rgba: encode(new Uint8Array(pixels.buffer)) };
  }, b64);
  const filtered = async () => ({
    filters: await page.evaluate(() => window.rsbagViewer.depth.filters),
    cloud: await page.evaluate(() => window.rsbagViewer.cloud.shown.header),
    ...(await depthShown()),
  });
  if (args.includes('--schemes')) {
    // Each of librealsense's schemes, equalized, then over a range.
    out.schemes = [];
    await page.fill('#depth-near', '0.3');
    await page.fill('#depth-far', '2.9');
    await page.dispatchEvent('#depth-far', 'change');
    for (const equalize of [true, false]) {
      for (let scheme = 0; scheme < 10; scheme++) {
        await page.selectOption('#depth-scheme', String(scheme));
        if (await page.isChecked('#depth-equalize') !== equalize) await page.click('#depth-equalize');
        await settle();
        out.schemes.push({ scheme, equalize, near: 0.3, far: 2.9, ...(await depthShown()) });
      }
    }
  }
  if (args.includes('--filters')) {
    await page.click('#filter-decimation');
    await settle();
    out.decimated = await filtered();
    for (const name of ['threshold', 'spatial', 'temporal', 'hole-filling']) await page.click(`#filter-${name}`);
    await settle();
    out.filtered = await filtered();
  }
  const screenshot = option('--screenshot');
  if (screenshot) await page.locator('#cloud').screenshot({ path: screenshot });
} catch (error) {
  out.failure = String(error.stack || error);
} finally {
  await browser.close();
}
process.stdout.write(`${JSON.stringify(out)}\n`);
