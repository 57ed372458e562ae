/**
 * The text a chunk's embedding is made from: the document title and the section heading give the
 * chunk its topic (a chunk of an abstract rarely names it), then the chunk text. The heading is left
 * out when it only repeats the title. Its hash keys the embedding (with the model id).
 */
export function embeddingInput(title: string | null, heading: string | null, text: string): string {
  const t = (title ?? '').trim();
  const h = (heading ?? '').trim();
  const head = [t, h && h !== t ? h : ''].filter(Boolean).join('\n');
  return head ? `${head}\n\n${text}` : text;
}
