import { describe, expect, it } from 'vitest';
import { createError, ERROR_CODES, serializeError, SynapsisError } from './errors.ts';

describe('errors', () => {
  it('carries code, message and retryable from the table', () => {
    const e = createError('E_SYN_VECTORSTORE_UNAVAILABLE', 'index missing', { dir: 'x' });
    expect(e).toBeInstanceOf(SynapsisError);
    expect(e.toJSON()).toEqual({ code: 'E_SYN_VECTORSTORE_UNAVAILABLE', message: 'index missing', retryable: true, details: { dir: 'x' } });
    expect(createError('E_SYN_RETRIEVE_DENIED', 'no').retryable).toBe(false);
  });

  it('holds every code named by the specifications', () => {
    for (const code of [
      'E_SYN_INDEX_FAILED', 'E_SYN_RETRIEVE_DENIED', 'E_SYN_VECTORSTORE_UNAVAILABLE', 'E_SYN_CHUNK_PARSE_FAILED',
      'E_SYN_EMBED_FAILED', 'E_SYN_INDEX_VERSION_MISMATCH', 'E_SYN_BAD_REQUEST', 'E_SYN_MODEL_UNAVAILABLE',
    ]) {
      expect(ERROR_CODES).toHaveProperty(code);
    }
  });

  it('serialises foreign errors under the fallback code', () => {
    expect(serializeError(new TypeError('boom'), 'E_SYN_BAD_REQUEST')).toEqual({ code: 'E_SYN_BAD_REQUEST', message: 'boom', retryable: false });
    expect(serializeError('plain string')).toEqual({ code: 'E_SYN_INTERNAL', message: 'plain string', retryable: false });
    expect(ERROR_CODES[serializeError(new Error('boom')).code].meaning).not.toMatch(/index/i);
  });
});
