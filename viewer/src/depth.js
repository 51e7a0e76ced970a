// How depth is shown: the one place where the page says what is done to a
// depth frame before it is drawn (as a picture and as the 3D view's point
// cloud), sent to the server with every depth request (see
// cli/src/view/depth.rs).
//
// Colours: the page's own jet map with a legend in metres ("rsbag"), or
// one of librealsense's colour schemes, coloured by the server with
// rsbag's colorizer (librealsense 2.55's rs.colorizer byte for byte), with
// histogram equalization or the "depth from … to … m" range as its
// min/max.
//
// Filters: librealsense's depth filters as toggles, each with its main
// option, sent in librealsense's usual order as `filter=SPEC` (the SPECs of
// `rsbag convert --filter`); for a stereo depth sensor's depth, spatial and
// temporal run in disparity space, between depth-to-disparity and
// disparity-to-depth, as realsense-viewer runs them (other depth has no
// disparity: they run on depth). The server filters each frame as convert does (temporal over
// the frames just before it).

import { el } from './util.js';

/** librealsense's colour schemes, in the order of its `color-scheme`
 * option. */
export const SCHEMES = ['Jet', 'Classic', 'White to Black', 'Black to White', 'Bio', 'Cold', 'Warm',
  'Quantized', 'Pattern', 'Hue'];

/** The filter toggles, in librealsense's order: each filter's `--filter`
 * name and the options shown (key, librealsense's default and range). */
export const FILTERS = [
  { name: 'decimation', options: [{ key: 'magnitude', value: 2, min: 1, max: 8, step: 1 }] },
  { name: 'threshold', options: [{ key: 'min', value: 0.15, min: 0, max: 16, step: 0.05, unit: 'm' },
    { key: 'max', value: 4, min: 0, max: 16, step: 0.05, unit: 'm' }] },
  { name: 'spatial', disparity: true, options: [{ key: 'alpha', value: 0.5, min: 0.25, max: 1, step: 0.05 }] },
  { name: 'temporal', disparity: true, options: [{ key: 'alpha', value: 0.4, min: 0, max: 1, step: 0.05 }] },
  { name: 'hole-filling', options: [{ key: 'mode', value: 1, min: 0, max: 2, step: 1 }] },
];

/** The `--filter` SPECs of the filters switched on (`on`: by name, each
 * with its option values by key), in chain order; `stereo`: in disparity
 * where the filter runs there. */
export function filterSpecs(on, stereo) {
  const specs = [];
  const chosen = FILTERS.filter((f) => on[f.name]);
  const firstDisparity = stereo ? chosen.findIndex((f) => f.disparity) : -1;
  const lastDisparity = stereo ? chosen.map((f) => f.disparity === true).lastIndexOf(true) : -1;
  chosen.forEach((filter, i) => {
    if (i === firstDisparity) specs.push('depth-to-disparity');
    const options = filter.options.map((o) => `${o.key}=${on[filter.name][o.key]}`);
    specs.push(`${filter.name}:${options.join(',')}`);
    if (i === lastDisparity) specs.push('disparity-to-depth');
  });
  return specs;
}

export class DepthSettings {
  /** `changed` is called when a setting changes; `stereo`: whether the
   * depth is a stereo depth sensor's (filters can run in disparity). */
  constructor(changed, stereo) {
    this.changed = changed;
    this.stereo = stereo;
    /** `null`: the page's own colours; otherwise librealsense's scheme
     * number. */
    this.scheme = null;
    this.equalize = true;
    /** Metres at the ends of the map (the page's "depth from … to … m"). */
    this.range = { near: 0.3, far: 4 };
    /** librealsense depth filters as `--filter` SPECs, applied in order
     * (set by the filter toggles). */
    this.filters = [];
  }

  /** The colour control: a scheme and, for librealsense's, whether to
   * equalize the histogram (shown only where a server colours depth). */
  controls() {
    const scheme = el('select', { id: 'depth-scheme', title: 'depth colours' },
      el('option', { value: '' }, 'rsbag (legend)'),
      SCHEMES.map((name, i) => el('option', { value: i }, `librealsense: ${name}`)));
    const equalize = el('input', { id: 'depth-equalize', type: 'checkbox', checked: '' });
    const equalizeLabel = el('label', { hidden: '' }, equalize, ' equalize');
    scheme.addEventListener('change', () => {
      this.scheme = scheme.value === '' ? null : Number(scheme.value);
      equalizeLabel.hidden = this.scheme === null;
      this.changed();
    });
    equalize.addEventListener('change', () => {
      this.equalize = equalize.checked;
      this.changed();
    });
    return el('span', { class: 'depth-settings' }, scheme, equalizeLabel, this.filterControls());
  }

  /** A toggle per depth filter, with its main option(s) as small inputs
   * (`#filter-NAME`, `#filter-NAME-KEY`). */
  filterControls() {
    const on = {};
    const values = Object.fromEntries(FILTERS.map((f) => [f.name, Object.fromEntries(f.options.map((o) => [o.key, o.value]))]));
    const update = () => {
      this.filters = filterSpecs(on, this.stereo);
      this.changed();
    };
    const toggles = FILTERS.map((filter) => {
      const toggle = el('input', { id: `filter-${filter.name}`, type: 'checkbox' });
      toggle.addEventListener('change', () => {
        on[filter.name] = toggle.checked ? values[filter.name] : undefined;
        update();
      });
      const inputs = filter.options.map((o) => {
        const input = el('input', { id: `filter-${filter.name}-${o.key}`, class: 'filter-option', type: 'number',
          title: `${filter.name} ${o.key}${o.unit ? ` (${o.unit})` : ''}`, min: o.min, max: o.max, step: o.step, value: o.value });
        input.addEventListener('change', () => {
          const value = Number(input.value);
          if (input.value === '' || !(value >= o.min && value <= o.max)) {
            input.value = values[filter.name][o.key];
            return;
          }
          values[filter.name][o.key] = value;
          if (on[filter.name]) update();
        });
        return input;
      });
      return el('label', { title: `librealsense's ${filter.name} filter` }, toggle, ` ${filter.name} `, inputs);
    });
    return el('span', { class: 'depth-filters' }, ' filters:', toggles);
  }

  /** Set the range in metres. */
  setRange(range) {
    this.range = range;
    this.changed();
  }

  /** The query parameters of a depth request ('' for the recording's
   * depth in the page's own colours). */
  query() {
    const parts = this.filters.map((spec) => `&filter=${encodeURIComponent(spec)}`);
    if (this.scheme !== null) {
      // min and max before equalization: setting them turns it off.
      const options = [`color-scheme=${this.scheme}`, `min=${this.range.near}`, `max=${this.range.far}`,
        `histogram-equalization=${this.equalize ? 1 : 0}`];
      parts.push(`&colorizer=${encodeURIComponent(options.join(','))}`);
    }
    return parts.join('');
  }
}
