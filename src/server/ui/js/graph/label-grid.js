// The screen boxes labels have taken, bucketed in a grid of 64 px cells so a new label checks
// only its neighbours (fast with hundreds of labels at 10k nodes). A box must lie inside the
// screen: a label cut off at the edge is not placed.

const CELL = 64;

export class LabelGrid {
  constructor(width, height) {
    this.width = width;
    this.height = height;
    this.cols = Math.max(1, Math.ceil(width / CELL));
    this.rows = Math.max(1, Math.ceil(height / CELL));
    this.cells = new Array(this.cols * this.rows);
  }

  /** Mark a box (a floating control; a node's disc, `owner` its index) as taken, clipped to
   *  the screen. */
  block(x, y, w, h, owner = -1) {
    const x0 = Math.max(0, x), y0 = Math.max(0, y);
    const x1 = Math.min(this.width, x + w), y1 = Math.min(this.height, y + h);
    if (x1 > x0 && y1 > y0) this.add([x0, y0, x1 - x0, y1 - y0, owner]);
  }

  /** Whether the box meets no box but `owner`'s or `also`'s (its own disc, an idea's topic's),
   *  without taking it. */
  free(x, y, w, h, owner, also = -1) {
    let free = true;
    this.visit([x, y, w, h], (b) => {
      if (b[4] !== owner && b[4] !== also && x < b[0] + b[2] && x + w > b[0] && y < b[1] + b[3] && y + h > b[1]) free = false;
      return free;
    });
    return free;
  }

  /** Take the box if it is on screen and free; false if not. */
  take(x, y, w, h) {
    if (x < 0 || y < 0 || x + w > this.width || y + h > this.height) return false;
    const box = [x, y, w, h];
    let free = true;
    this.visit(box, (b) => {
      if (x < b[0] + b[2] && x + w > b[0] && y < b[1] + b[3] && y + h > b[1]) free = false;
      return free;
    });
    if (free) this.add(box);
    return free;
  }

  add(box) {
    this.visit(box, null, (cell) => {
      const list = this.cells[cell] || (this.cells[cell] = []);
      list.push(box);
    });
  }

  visit(box, test, onCell) {
    const c0 = Math.max(0, Math.floor(box[0] / CELL));
    const c1 = Math.min(this.cols - 1, Math.floor((box[0] + box[2]) / CELL));
    const r0 = Math.max(0, Math.floor(box[1] / CELL));
    const r1 = Math.min(this.rows - 1, Math.floor((box[1] + box[3]) / CELL));
    for (let r = r0; r <= r1; r++) {
      for (let c = c0; c <= c1; c++) {
        const cell = r * this.cols + c;
        if (onCell) onCell(cell);
        else for (const b of this.cells[cell] || []) if (!test(b)) return;
      }
    }
  }
}
