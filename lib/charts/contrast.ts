/** The colour of text drawn on a chart's filled mark: black or white, whichever contrasts more with the fill. */

/** `colour`'s channels (#rgb, #rrggbb or rgb()/rgba()), or null when it is none of them. */
function channels(colour: string): [number, number, number] | null {
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(colour.trim())?.[1];
  if (hex) {
    const pairs = hex.length === 3 ? [...hex].map((c) => c + c) : [hex.slice(0, 2), hex.slice(2, 4), hex.slice(4, 6)];
    return pairs.map((h) => parseInt(h, 16)) as [number, number, number];
  }
  const rgb = /^rgba?\(\s*(\d+)[\s,]+(\d+)[\s,]+(\d+)/.exec(colour.trim());
  return rgb ? [Number(rgb[1]), Number(rgb[2]), Number(rgb[3])] : null;
}

/** WCAG relative luminance, 0 (black) to 1 (white). */
function luminance([r, g, b]: [number, number, number]): number {
  const lin = (v: number) => {
    const c = v / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/** Black or white on `colour`; black when the colour cannot be read. Both contrasts are equal at a luminance of about 0.179. */
export function textOn(colour: string): "#000" | "#fff" {
  const c = channels(colour);
  return c && luminance(c) < 0.179 ? "#fff" : "#000";
}
