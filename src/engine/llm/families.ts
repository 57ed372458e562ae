/**
 * What an embedding model family expects around its inputs. Retrieval-tuned embedders are trained
 * with a query prefix and a document prefix; leaving them out costs several points of nDCG
 * (multilingual-e5: `query: ` / `passage: `). Matched on the model's name and file name.
 */
export interface ModelFamily {
  family: string;
  queryPrefix: string;
  documentPrefix: string;
  /** Tokens per input the model was trained on, when lower than its position table (MiniLM: 256 of 512). */
  maxTokens?: number;
}

const FAMILIES: { match: RegExp; family: ModelFamily }[] = [
  { match: /\be5\b|[-_]e5[-_.]/i, family: { family: 'e5', queryPrefix: 'query: ', documentPrefix: 'passage: ' } },
  { match: /nomic/i, family: { family: 'nomic', queryPrefix: 'search_query: ', documentPrefix: 'search_document: ' } },
  {
    match: /\bbge\b|bge[-_]/i,
    family: { family: 'bge', queryPrefix: 'Represent this sentence for searching relevant passages: ', documentPrefix: '' },
  },
  { match: /snowflake[-_ ]arctic[-_ ]embed/i, family: { family: 'arctic', queryPrefix: 'Represent this sentence for searching relevant passages: ', documentPrefix: '' } },
  { match: /minilm/i, family: { family: 'minilm', queryPrefix: '', documentPrefix: '', maxTokens: 256 } },
  { match: /gte[-_]/i, family: { family: 'gte', queryPrefix: '', documentPrefix: '' } },
];

export function modelFamily(name: string, fileName: string): ModelFamily {
  const text = `${name} ${fileName}`;
  return FAMILIES.find((f) => f.match.test(text))?.family ?? { family: 'generic', queryPrefix: '', documentPrefix: '' };
}
