import { describe, expect, it } from 'vitest';
import { parseRequest } from './validate.ts';

describe('parseRequest', () => {
  it('applies defaults and returns typed requests', () => {
    expect(parseRequest('index/run', {})).toEqual({ sources: [] });
    expect(parseRequest('search/query', { query: 'x', k: 3 })).toEqual({ query: 'x', k: 3 });
  });

  it('rejects bad input with E_SYN_BAD_REQUEST naming the field', () => {
    expect(() => parseRequest('search/query', { query: 42 })).toThrowError(/query/);
    expect(() => parseRequest('search/query', { query: 'x', k: 0 })).toThrowError(expect.objectContaining({ code: 'E_SYN_BAD_REQUEST' }));
    expect(() => parseRequest('search/query', { query: 'x', evil: true })).toThrowError(/evil|Unrecognized/i);
    expect(() => parseRequest('index/addRoot', { path: '' })).toThrowError(/path/);
  });
});
