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
// Filters (librealsense's depth filters, `--filter SPEC`) plug in here:
// `filters` is the list of SPECs sent, in order, as `filter=SPEC`.

import { el } from './util.js';

/** librealsense's colour schemes, in the order of its `color-scheme`
 * option. */
export const SCHEMES = ['Jet', 'Classic', 'White to Black', 'Black to White', 'Bio', 'Cold', 'Warm',
  'Quantized', 'Pattern', 'Hue'];

export class DepthSettings {
  /** `changed` is called when a setting changes. */
  constructor(changed) {
    this.changed = changed;
    /** `null`: the page's own colours; otherwise librealsense's scheme
     * number. */
    this.scheme = null;
    this.equalize = true;
    /** Metres at the ends of the map (the page's "depth from … to … m"). */
    this.range = { near: 0.3, far: 4 };
    /** librealsense depth filters as `--filter` SPECs, applied in order
     * (none yet: the filter toggles go here). */
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
    return el('span', { class: 'depth-settings' }, scheme, equalizeLabel);
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
