// IMU and pose over time, one uPlot chart per stream, with the cursor of
// the page drawn on each (a click on a chart moves it there).

import uPlot from 'uplot';
import { el } from './util.js';

const SERIES = {
  motion: [['x', '#d62728'], ['y', '#2ca02c'], ['z', '#1f77b4']],
  pose: [['tx', '#d62728'], ['ty', '#2ca02c'], ['tz', '#1f77b4']],
};
const UNITS = { Gyro: 'rad/s', Accel: 'm/s²', Pose: 'm' };

class Plot {
  constructor(stream, viewer) {
    this.stream = stream;
    const columns = SERIES[stream.kind];
    const data = [stream.frames.t, ...columns.map(([name]) => stream.samples[name])];
    this.node = el('figure', { class: 'plot', 'data-stream': stream.key },
      el('figcaption', {}, `${stream.key} (${UNITS[stream.name] || ''}), ${stream.frames.t.length} samples`));
    this.cursor = el('div', { class: 'plot-cursor' });
    const options = {
      width: 600,
      height: 180,
      scales: { x: { time: false } },
      axes: [{ label: 's' }, {}],
      series: [{ label: 't (s)' }, ...columns.map(([name, stroke]) => ({ label: name, stroke, width: 1 }))],
      cursor: { sync: { key: 'rsbag' }, drag: { x: false, y: false } },
      legend: { live: true },
    };
    this.chart = new uPlot(options, data, this.node);
    this.chart.over.append(this.cursor);
    this.chart.over.addEventListener('click', (e) => {
      const t = this.chart.posToVal(e.offsetX, 'x');
      viewer.seek(Math.min(viewer.duration, Math.max(0, t)));
    });
  }

  resize(width) {
    this.chart.setSize({ width, height: 180 });
  }

  showTime(t) {
    const x = this.chart.valToPos(t, 'x');
    this.cursor.style.left = `${x}px`;
  }
}

/** The plots of every IMU and pose stream. */
export class Plots {
  constructor(recording, viewer) {
    this.plots = recording.streams
      .filter((s) => (s.kind === 'motion' || s.kind === 'pose') && s.samples)
      .map((s) => new Plot(s, viewer));
    this.node = el('div', { id: 'plots' }, this.plots.map((p) => p.node));
    if (this.plots.length === 0) this.node.append(el('p', {}, 'The recording has no IMU or pose stream.'));
    new ResizeObserver(() => {
      const width = Math.max(300, this.node.clientWidth - 20);
      for (const plot of this.plots) plot.resize(width);
    }).observe(this.node);
  }

  showTime(t) {
    for (const plot of this.plots) plot.showTime(t);
  }

  /** The uPlot chart of each stream, by stream key. */
  charts() {
    return Object.fromEntries(this.plots.map((p) => [p.stream.key, p.chart]));
  }
}
