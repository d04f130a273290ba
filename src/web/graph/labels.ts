// Labels that never overlap: sigma's label grid proposes candidates (one per cell, larger
// nodes first); a candidate is drawn only where it overlaps no label already drawn in the
// frame, with a halo in the background colour so it reads over edges. Given the panel's
// size, a label that would run past its right edge goes to the left of its node, and one
// that fits neither side is shortened with an ellipsis: none is cut at the edge.
import type { Settings } from 'sigma/settings';
import type { NodeDisplayData, PartialButFor } from 'sigma/types';

export interface LabelBox {
  id: string;
  x: number;
  y: number;
  w: number;
  h: number;
}

export class LabelPlacer {
  private drawn: LabelBox[] = [];
  private last: LabelBox[] = [];

  constructor(
    private readonly colours: () => { text: string; surface: string },
    private readonly bounds?: () => { width: number; height: number },
  ) {}

  /** Call on sigma's beforeRender / afterRender. */
  begin(): void {
    this.drawn = [];
  }
  end(): void {
    this.last = this.drawn;
  }

  /** The labels drawn in the last complete frame, in viewport pixels. */
  boxes(): LabelBox[] {
    return this.last.map((b) => ({ ...b }));
  }

  /** sigma's defaultDrawNodeLabel. */
  draw = (ctx: CanvasRenderingContext2D, data: PartialButFor<NodeDisplayData, 'x' | 'y' | 'size' | 'label' | 'color'>, settings: Settings): void => {
    if (!data.label) return;
    const size = settings.labelSize;
    ctx.font = `${settings.labelWeight} ${size}px ${settings.labelFont}`;
    const gap = data.size + 3;
    let label = data.label;
    let w = ctx.measureText(label).width + 2;
    let x = data.x + gap;
    let y = data.y - size / 2 - 1;
    const area = this.bounds?.();
    if (area) {
      const right = area.width - x;
      const left = data.x - gap;
      if (w > right) {
        if (w <= left) x = left - w;
        else {
          const room = Math.max(right, left);
          if (room < MIN_LABEL_PX) return;
          label = shorten(ctx, label, room - 2);
          w = ctx.measureText(label).width + 2;
          x = room === right ? x : left - w;
        }
      }
      y = Math.min(Math.max(0, y), area.height - (size + 2));
    }
    const box = { id: (data as { key?: string }).key ?? data.label, x, y, w, h: size + 2 };
    if (this.drawn.some((b) => box.x < b.x + b.w && b.x < box.x + box.w && box.y < b.y + b.h && b.y < box.y + box.h)) return;
    this.drawn.push(box);
    const { text, surface } = this.colours();
    const baseline = y + 1 + size / 2 + size / 3;
    ctx.lineWidth = 3;
    ctx.strokeStyle = surface;
    ctx.strokeText(label, x, baseline);
    ctx.fillStyle = text;
    ctx.fillText(label, x, baseline);
  };
}

/** Below this many pixels of room a label says too little to be worth drawing. */
const MIN_LABEL_PX = 36;

/** The longest start of `label` that fits `px` with an ellipsis, cut at a word when one is near. */
function shorten(ctx: CanvasRenderingContext2D, label: string, px: number): string {
  let lo = 0;
  let hi = label.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (ctx.measureText(`${label.slice(0, mid).trimEnd()}…`).width <= px) lo = mid;
    else hi = mid - 1;
  }
  const cut = label.slice(0, lo);
  const space = cut.lastIndexOf(' ');
  return `${(space > lo * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
