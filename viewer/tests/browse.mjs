// Drive the viewer page in headless Chromium (Debian's, through
// playwright-core) and print what the page shows as one JSON object, for
// cli/tests/view.rs to judge against the recording's reference frames.
//
//   node browse.mjs URL [--screenshots DIR] [--offline]
//
// URL is a served page (http://127.0.0.1:PORT/) or an exported report
// (file:///…/report.html). With --offline every request that leaves the
// page's own file fails, and the requests tried are reported. With
// --screenshots, DIR/view.png (pictures and timeline, hovering over the
// depth) and DIR/view-details.png (plots and panels), as in the guide
// (docs/src/viewing.md).

import { laneTicks, launch, openViewer, option as optionIn, settled } from './page.mjs';

const args = process.argv.slice(2);
const url = args[0];
const option = (name) => optionIn(args, name);
const offline = args.includes('--offline');

const browser = await launch();
const out = { errors: [], requests: [] };
try {
  const page = await openViewer(browser, url, out, { offline });
  const settle = () => settled(page);

  // What the page lists.
  out.captions = await page.$$eval('figure.stream figcaption, figure.plot figcaption', (n) => n.map((e) => e.textContent));
  out.stream_rows = await page.$$eval('#stream-table tbody tr', (rows) => rows.map((r) => r.cells[0].textContent));
  out.damage = await page.$eval('#damage', (e) => e.innerText);
  out.connections = await page.$$eval('#connections tbody tr',
    (rows) => rows.map((r) => Array.from(r.cells).map((c) => c.textContent)));

  // Every picture shown: its canvas pixels and the frame's own values.
  const pictures = () => page.evaluate(() => {
    const b64 = (bytes) => {
      let s = '';
      for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
      return btoa(s);
    };
    const shown = window.rsbagViewer.state().shown;
    return Object.fromEntries(Object.entries(shown).map(([key, frame]) => {
      const canvas = document.querySelector(`canvas.frame[data-stream="${key}"]`);
      const pixels = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
      const legend = document.querySelector(`canvas.legend[data-stream="${key}"]`);
      return [key, {
        header: frame.header,
        canvas: { width: canvas.width, height: canvas.height, rgba: b64(new Uint8Array(pixels.buffer)) },
        values: b64(frame.pixels),
        legend: legend && {
          near: Number(legend.dataset.near),
          far: Number(legend.dataset.far),
          rgba: b64(new Uint8Array(legend.getContext('2d').getImageData(0, 0, legend.width, 1).data.buffer)),
        },
      }];
    }));
  });
  out.first = await pictures();

  // Hover over the middle of each picture: the tooltip names the pixel.
  out.hover = {};
  for (const key of Object.keys(out.first)) {
    const canvas = page.locator(`canvas.frame[data-stream="${key}"]`);
    const box = await canvas.boundingBox();
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    out.hover[key] = await page.$eval('#tooltip', (e) => (e.hidden ? '' : e.innerText));
  }

  // The time shown, whether playing, and the frame each stream shows.
  const shownNow = () => page.evaluate(() => {
    const state = window.rsbagViewer.state();
    return { time: state.time, playing: state.playing,
      shown: Object.fromEntries(Object.entries(state.shown).map(([k, f]) => [k, f.header.index])) };
  });

  // Scrub to the middle, then to the end.
  const scrub = async (fraction) => {
    await page.$eval('#scrubber', (s, f) => {
      s.value = Math.round(f * Number(s.max));
      s.dispatchEvent(new Event('input'));
    }, fraction);
    await settle();
    return shownNow();
  };
  out.scrub = [await scrub(0.5), await scrub(1)];
  out.last = await pictures();

  // Play from the start at the slowest speed for a moment.
  await scrub(0);
  await page.selectOption('#speed', '0.1');
  const before = await page.evaluate(() => window.rsbagViewer.state().framesShown.length);
  await page.click('#play');
  await page.waitForTimeout(1500);
  out.play = await page.evaluate((n) => {
    const state = window.rsbagViewer.state();
    return { time: state.time, playing: state.playing, shown_while_playing: state.framesShown.slice(n) };
  }, before);
  await page.click('#play');

  // Step through frames with the keyboard from the start: → → ←, then
  // Space plays and Space pauses.
  await scrub(0);
  await page.evaluate(() => document.activeElement && document.activeElement.blur());
  out.steps = [];
  for (const key of ['ArrowRight', 'ArrowRight', 'ArrowLeft']) {
    await page.keyboard.press(key);
    await settle();
    out.steps.push(await shownNow());
  }
  await page.keyboard.press(' ');
  out.space = [(await shownNow()).playing];
  await page.keyboard.press(' ');
  out.space.push((await shownNow()).playing);

  // The timeline's marks, and the colour the timeline shows at each.
  out.marks = await page.evaluate(() => {
    const canvas = document.getElementById('timeline-canvas');
    const context = canvas.getContext('2d');
    return window.rsbagViewer.state().marks.map((m) => {
      const x = Math.round((m.x0 + m.x1) / 2);
      const pixel = Array.from(context.getImageData(x, Math.round(m.y), 1, 1).data);
      return { lane: m.lane, kind: m.kind, t: m.t, text: m.text, pixel };
    });
  });
  ({ lanes: out.lanes, ticks: out.ticks } = await laneTicks(page));

  // The plots and the samples they hold.
  out.plots = await page.evaluate(() => Object.fromEntries(Object.entries(window.rsbagViewer.state().plots)
    .map(([key, chart]) => [key, { samples: chart.data[0].length, series: chart.data.length - 1,
      rendered: chart.root.querySelector('canvas').width > 0 }])));

  // Every picture drawn: stream, index, whether a preview, times.
  out.drawn = await page.evaluate(() => window.rsbagViewer.state().framesShown);
  const screenshots = option('--screenshots');
  if (screenshots) {
    // Tall enough for the pictures and the timeline.
    await page.setViewportSize({ width: 1400, height: 1250 });
    await page.selectOption('#speed', '1');
    await scrub(0.5);
    const depth = page.locator('canvas.frame').first();
    const box = await depth.boundingBox();
    await page.mouse.move(box.x + box.width * 0.7, box.y + box.height * 0.45);
    await page.screenshot({ path: `${screenshots}/view.png` });
    await page.mouse.move(0, 0);
    await page.locator('#plots').scrollIntoViewIfNeeded();
    await page.evaluate(() => window.scrollTo(0, document.getElementById('plots').offsetTop - 60));
    await page.screenshot({ path: `${screenshots}/view-details.png` });
  }
} catch (error) {
  out.failure = String(error.stack || error);
} finally {
  await browser.close();
}
process.stdout.write(`${JSON.stringify(out)}\n`);
