// WCAG 2 contrast of an element's text against what is behind it, as drawn:
// the first opaque background up its ancestors (translucent ones blended).

/** The contrast ratio (1–21) of the locator's text colour on its background. */
export async function contrastOf(locator) {
  return locator.evaluate((el) => {
    const rgba = (s) => {
      const m = s.match(/[\d.]+/g)?.map(Number) ?? [0, 0, 0, 0];
      return [m[0], m[1], m[2], m.length > 3 ? m[3] : 1];
    };
    const over = (top, under) => top.slice(0, 3).map((c, i) => c * top[3] + under[i] * (1 - top[3]));
    const layers = [];
    for (let n = el; n; n = n.parentElement) {
      const bg = rgba(getComputedStyle(n).backgroundColor);
      if (bg[3] > 0) layers.push(bg);
      if (bg[3] >= 1) break;
    }
    let back = [255, 255, 255];
    for (const l of layers.reverse()) back = over(l, back);
    const fg = over(rgba(getComputedStyle(el).color), back);
    const lum = (c) => {
      const [r, g, b] = c.map((v) => {
        const x = v / 255;
        return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const [a, b] = [lum(fg), lum(back)].sort((x, y) => y - x);
    return (a + 0.05) / (b + 0.05);
  });
}
