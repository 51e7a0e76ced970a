// What the viewer's page tests share: Chromium started as this machine
// allows (Debian's, headless, without the background traffic a closed
// network refuses) and the viewer's page opened in it, its errors and
// requests recorded, up to the moment its first frames are shown.

import { chromium } from 'playwright-core';

// The value after `name` in `args`, or undefined.
export const option = (args, name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};

export const launch = () => chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});

// Wait until the page has drawn what it was last asked to show.
export const settled = (page) =>
  page.waitForFunction(() => window.rsbagViewer.state().settled, null, { timeout: 30000 });

// Open `url` in a new page (offline: every request leaving the page's own
// file fails), with its errors in `out.errors` and the requests it made
// in `out.requests`; `out.ready` is what the page said when it started
// ('true', or its error, when `out.text` has the page's text and this
// throws).
export async function openViewer(browser, url, out, { offline = false, readyTimeout = 30000 } = {}) {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 }, offline });
  const page = await context.newPage();
  page.on('pageerror', (e) => out.errors.push(String(e)));
  page.on('console', (m) => m.type() === 'error' && out.errors.push(m.text()));
  page.on('request', (r) => out.requests.push(r.url()));
  await page.goto(url);
  await page.waitForFunction(() => document.body.dataset.ready, null, { timeout: readyTimeout });
  out.ready = await page.evaluate(() => document.body.dataset.ready);
  if (out.ready !== 'true') {
    out.text = await page.evaluate(() => document.body.innerText);
    throw new Error('the page did not start');
  }
  await settled(page);
  return page;
}

// The timeline's lanes, and the frame ticks drawn on each: columns of the
// frame colour across the middle of the lane (with everything in view, one
// a frame where frames are further apart than a pixel).
export const laneTicks = (page) => page.evaluate(() => {
  const canvas = document.getElementById('timeline-canvas');
  const row = (y) => canvas.getContext('2d').getImageData(0, y, canvas.width, 1).data;
  const lanes = window.rsbagViewer.timeline.lanes;
  const ticks = Object.fromEntries(lanes.map((lane, i) => {
    const pixels = row(i * 22 + 11);
    let columns = 0;
    for (let x = 0; x < canvas.width; x++) {
      const [r, g, b] = pixels.slice(4 * x, 4 * x + 3);
      if (r === 0x3a && g === 0x6e && b === 0xa5) columns++;
    }
    return [lane.name, columns];
  }));
  return { lanes: lanes.map((l) => l.name), ticks };
});
