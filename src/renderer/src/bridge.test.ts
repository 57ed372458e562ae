// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { readToken } from './bridge.ts';

describe('readToken', () => {
  it('takes the token from the address fragment, keeps it for reloads and removes it from the address bar', () => {
    const token = 'ab'.repeat(32);
    window.history.replaceState(null, '', `/search?x=1#token=${token}`);
    expect(readToken(window.location, window.sessionStorage, window.history)).toBe(token);
    expect(window.location.hash).toBe('');
    expect(window.location.pathname + window.location.search).toBe('/search?x=1');
    expect(readToken(window.location, window.sessionStorage, window.history)).toBe(token);
  });

  it('ignores a fragment that is not a token', () => {
    window.sessionStorage.clear();
    window.history.replaceState(null, '', '/#token=<script>');
    expect(readToken(window.location, window.sessionStorage, window.history)).toBeNull();
  });
});
