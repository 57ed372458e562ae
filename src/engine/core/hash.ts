import { createHash } from 'node:crypto';

export function sha256(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** JSON with sorted keys, so equal values always hash equally. */
export function stableStringify(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableStringify(v)}`).join(',')}}`;
}

/** chunk_hash = H(doc_id + locator + normalized_text + tags + chunking_params_hash), docs/design.md §3. */
export function chunkHash(docId: string, locator: string, text: string, tags: Record<string, string>, paramsHash: string): string {
  return sha256([docId, locator, text, stableStringify(tags), paramsHash].join('\u0000'));
}
