// Scores leave the API rounded: 4 decimals say everything a ranking can mean.
export function roundScore(x: number, decimals = 4): number {
  const f = 10 ** decimals;
  return Math.round(x * f) / f;
}
