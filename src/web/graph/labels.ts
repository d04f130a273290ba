// Labels that never overlap: sigma's label grid proposes candidates (one per cell, larger
// nodes first); a candidate is drawn only where it overlaps no label already drawn in the
// frame, with a halo in the background colour so it reads over edges.
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

  constructor(private readonly colours: () => { text: string; surface: string }) {}

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
    const w = ctx.measureText(data.label).width;
    const box = { id: (data as { key?: string }).key ?? data.label, x: data.x + data.size + 3, y: data.y - size / 2 - 1, w: w + 2, h: size + 2 };
    if (this.drawn.some((b) => box.x < b.x + b.w && b.x < box.x + box.w && box.y < b.y + b.h && b.y < box.y + box.h)) return;
    this.drawn.push(box);
    const { text, surface } = this.colours();
    ctx.lineWidth = 3;
    ctx.strokeStyle = surface;
    ctx.strokeText(data.label, box.x, data.y + size / 3);
    ctx.fillStyle = text;
    ctx.fillText(data.label, box.x, data.y + size / 3);
  };
}
