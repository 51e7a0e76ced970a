// Depth as colour: the jet map of `rsbag convert --colorize` (blue near,
// red far, black for no depth), as a table of LEGEND_STEPS colours so the
// legend shows exactly the colours the pictures use.

export const LEGEND_STEPS = 256;

function channel(t, centre) {
  const v = Math.min(1, Math.max(0, 1.5 - Math.abs(4 * t - centre)));
  return Math.round(v * 255);
}

/** The map's colours, from near (0) to far (LEGEND_STEPS - 1). */
export const JET = Array.from({ length: LEGEND_STEPS }, (_, i) => {
  const t = i / (LEGEND_STEPS - 1);
  return [channel(t, 3), channel(t, 2), channel(t, 1)];
});

/** The step of the map a depth in metres falls on. */
export function step(metres, near, far) {
  const t = Math.min(1, Math.max(0, (metres - near) / (far - near)));
  return Math.round(t * (LEGEND_STEPS - 1));
}
