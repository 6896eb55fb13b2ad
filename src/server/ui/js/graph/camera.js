// The graph camera: centre (x, y) in world units and zoom k (screen px per world unit), with
// eased fly-to animations. `step(t)` advances an animation and says whether it is still moving,
// so the renderer's loop can go idle the moment nothing moves. Persisted per device.

const KEY = "studyhall.camera";
const MIN_K = 1e-4;
const MAX_K = 1e4;

export class Camera {
  constructor(onChange) {
    this.x = 0;
    this.y = 0;
    this.k = 1;
    this.onChange = onChange;
    this.anim = null;
    this.limits = [MIN_K, MAX_K];
  }

  toWorld(sx, sy, width, height) {
    return [(sx - width / 2) / this.k + this.x, (sy - height / 2) / this.k + this.y];
  }

  toScreen(wx, wy, width, height) {
    return [(wx - this.x) * this.k + width / 2, (wy - this.y) * this.k + height / 2];
  }

  clampK(k) {
    return Math.min(this.limits[1], Math.max(this.limits[0], k));
  }

  setLimits(model, width, height) {
    const span = Math.max(model.bounds.maxX - model.bounds.minX, model.bounds.maxY - model.bounds.minY, model.unit);
    // From "the whole graph is a speck" to "one node fills a good part of the screen".
    this.limits = [Math.min(width, height) / (span * 8), 400 / model.unit];
  }

  fitView(model, width, height) {
    const b = model.bounds;
    const pad = model.unit * 2;
    const w = b.maxX - b.minX + pad * 2, hgt = b.maxY - b.minY + pad * 2;
    const k = Math.min(width / w, height / hgt);
    return { x: (b.minX + b.maxX) / 2, y: (b.minY + b.maxY) / 2, k: Math.min(k, 110 / model.unit) };
  }

  fit(model, width, height) {
    this.setLimits(model, width, height);
    Object.assign(this, this.fitView(model, width, height));
    this.anim = null;
    this.onChange();
  }

  fitAnimated(model, width, height) {
    const v = this.fitView(model, width, height);
    this.flyTo(v.x, v.y, v.k);
  }

  panBy(dx, dy) {
    this.anim = null;
    this.x -= dx / this.k;
    this.y -= dy / this.k;
    this.onChange();
  }

  zoomAt(sx, sy, factor, width, height) {
    this.anim = null;
    const [wx, wy] = this.toWorld(sx, sy, width, height);
    this.k = this.clampK(this.k * factor);
    // Keep the world point under the cursor where it was.
    this.x = wx - (sx - width / 2) / this.k;
    this.y = wy - (sy - height / 2) / this.k;
    this.onChange();
  }

  /** Animate to (x, y, k): zoom out a little on long trips so the path reads as a flight. */
  flyTo(x, y, k, duration = 650) {
    const from = { x: this.x, y: this.y, k: this.k };
    const to = { x, y, k: this.clampK(k) };
    const distance = Math.hypot(to.x - from.x, to.y - from.y) * Math.min(from.k, to.k);
    this.anim = { from, to, start: null, duration, dip: Math.min(0.6, distance / 2500) };
    this.onChange();
  }

  stop() {
    this.anim = null;
  }

  /** Advance the animation to time t; true while it still moves. */
  step(t) {
    const a = this.anim;
    if (!a) return false;
    if (a.start === null) a.start = t;
    const p = Math.min(1, (t - a.start) / a.duration);
    const e = p < 0.5 ? 4 * p * p * p : 1 - (-2 * p + 2) ** 3 / 2;  // ease in-out cubic
    const logK = Math.log(a.from.k) + (Math.log(a.to.k) - Math.log(a.from.k)) * e;
    this.k = Math.exp(logK) * (1 - a.dip * Math.sin(Math.PI * e));
    this.x = a.from.x + (a.to.x - a.from.x) * e;
    this.y = a.from.y + (a.to.y - a.from.y) * e;
    if (p >= 1) {
      Object.assign(this, a.to);
      this.anim = null;
      return false;
    }
    return true;
  }

  save() {
    clearTimeout(this.saveTimer);
    this.saveTimer = setTimeout(() => {
      try {
        localStorage.setItem(KEY, JSON.stringify({ x: this.x, y: this.y, k: this.k }));
      } catch { /* storage full or off: the camera just is not remembered */ }
    }, 400);
  }

  /** Restore the saved camera if it still shows part of this graph. */
  restore(model) {
    try {
      const saved = JSON.parse(localStorage.getItem(KEY) || "null");
      const b = model.bounds;
      if (!saved || ![saved.x, saved.y, saved.k].every(Number.isFinite) || saved.k <= 0) return false;
      const inside = saved.x >= b.minX - model.unit * 10 && saved.x <= b.maxX + model.unit * 10 &&
        saved.y >= b.minY - model.unit * 10 && saved.y <= b.maxY + model.unit * 10;
      if (!inside) return false;
      Object.assign(this, { x: saved.x, y: saved.y, k: this.clampK(saved.k) });
      return true;
    } catch {
      return false;
    }
  }
}
