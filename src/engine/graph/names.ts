/** How names compare in the graph: case, accents, ё/е and spacing folded ("Tomás  HERRERA" = "tomas herrera"). */
export function normalizeName(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/ё/g, 'е')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}
