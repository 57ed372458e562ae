declare module 'stopword' {
  export const eng: string[];
  export const rus: string[];
  // Used by the language detector (src/engine/lang/detect.ts) as function-word evidence.
  export const fra: string[], deu: string[], spa: string[], por: string[], ita: string[], nld: string[], swe: string[], dan: string[];
  export const nob: string[], fin: string[], pol: string[], ces: string[], slk: string[], hun: string[], ron: string[], tur: string[];
  export const lit: string[], lav: string[], est: string[], ind: string[], vie: string[], tgl: string[], afr: string[], gle: string[];
  // Chinese and Japanese function words (src/engine/search/analyzer.ts).
  export const zho: string[], jpn: string[], hin: string[], tha: string[], ara: string[];
  export function removeStopwords(tokens: string[], stopwords?: string[]): string[];
}
