// Drive the page of a session (`rsbag view A.bag B.db3 ...`, served or
// exported) in headless Chromium (Debian's, through playwright-core) and
// print what it shows as one JSON object, for cli/tests/view_session.rs
// to judge against the library's session and what librealsense recorded.
//
//   node session.mjs URL --at T1,T2,... [--offline] [--screenshots DIR]
//
// At each time T (seconds on the session's clock from its first frame),
// set with the scrubber: the frame each lane shows (header and the
// frame's own bytes), or none. Also the clock line, the timeline's lanes
// and the frame ticks drawn on each, and the sync report's cells.

import { laneTicks, launch, openViewer, option as optionIn, settled } from './page.mjs';

const args = process.argv.slice(2);
const url = args[0];
const option = (name) => optionIn(args, name);
const offline = args.includes('--offline');
const times = (option('--at') || '').split(',').filter((t) => t).map(Number);

const browser = await launch();
const out = { errors: [], requests: [] };
try {
  const page = await openViewer(browser, url, out, { offline, readyTimeout: 60000 });
  const settle = () => settled(page);

  out.title = await page.$eval('header', (e) => e.innerText);
  out.clock = await page.$eval('#session-clock', (e) => e.innerText);
  out.duration = await page.evaluate(() => window.rsbagViewer.duration);
  ({ lanes: out.lanes, ticks: out.ticks } = await laneTicks(page));
  out.marks = await page.evaluate(() => window.rsbagViewer.state().marks
    .map((m) => ({ lane: m.lane, kind: m.kind, t: m.t, start: m.start, text: m.text })));
  out.pictures = await page.$$eval('figure.stream', (n) => n.map((e) => e.dataset.stream));
  out.sync_rule = await page.$eval('#sync-rule', (e) => e.textContent);
  out.sync = await page.$$eval('#sync-report tbody tr', (rows) => Object.fromEntries(rows.map((r) => [r.dataset.pair,
    Object.fromEntries(Array.from(r.cells).map((c) => [c.dataset.column, c.textContent]))])));
  out.damage = await page.$eval('#damage', (e) => e.innerText);

  // The frame each lane shows at each time.
  const shown = () => page.evaluate(() => {
    const b64 = (bytes) => {
      let s = '';
      for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
      return btoa(s);
    };
    const viewer = window.rsbagViewer;
    return {
      time: viewer.time,
      label: document.getElementById('time').textContent,
      lanes: Object.fromEntries(viewer.pictures.views.map((v) => [v.stream.key, v.shown
        ? { header: v.shown.header, values: b64(v.shown.pixels), caption: v.caption.textContent }
        : { header: null, caption: v.caption.textContent }])),
    };
  });
  out.at = [];
  for (const t of times) {
    await page.$eval('#scrubber', (s, f) => {
      s.value = Math.round(f * Number(s.max));
      s.dispatchEvent(new Event('input'));
    }, t / out.duration);
    await settle();
    out.at.push(await shown());
  }
  // The guide's pictures (docs/src/viewing.md): the frames of every camera
  // at the last time given, then the timeline and the sync report.
  const screenshots = option('--screenshots');
  if (screenshots) {
    await page.screenshot({ path: `${screenshots}/view-session.png` });
    await page.evaluate(() => window.scrollTo(0, document.getElementById('timeline').offsetTop - 90));
    await page.screenshot({ path: `${screenshots}/view-session-sync.png` });
  }
} catch (error) {
  out.failure = String(error.stack || error);
} finally {
  await browser.close();
}
process.stdout.write(`${JSON.stringify(out)}\n`);
