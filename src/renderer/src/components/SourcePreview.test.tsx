// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SourceLines } from '../../../shared/contract.ts';
import type { Preview } from '../slices/source.ts';
import { useApp } from '../store.ts';
import { SourcePreview } from './SourcePreview.tsx';

const initial = useApp.getState();
const scrolled: string[] = [];
beforeEach(() => {
  scrolled.length = 0;
  Element.prototype.scrollIntoView = function (this: Element) {
    scrolled.push(`${this.tagName.toLowerCase()}:${this.textContent}`);
  };
});
afterEach(() => {
  cleanup();
  useApp.setState(initial, true);
});

const TEXT = '# Relay\n\nOwner: [[Dana Park]] and [[Ghost]].\n\n<script>window.hacked = 1</script>\n\n## Ports\n\nThe relay listens on 7443.\n';
const note: SourceLines = { locator: 'a.md#L1-L9', doc_id: 'a.md', path: 'a.md', root: '/v', uri: 'file:///v/a.md', type: 'markdown', language: null, start_line: 1, end_line: 9, text: TEXT, stale: false, truncated: false };

function show(preview: Partial<Preview>, follow = vi.fn(async () => {})) {
  useApp.setState({
    followInPreview: follow,
    preview: {
      locator: 'a.md#L9-L9', path: 'a.md', start: 9, end: 9, cited: true, source: note, note, view: 'note', error: null, relatedError: null,
      related: { path: 'a.md', similarity: 'words', links: [{ name: 'Dana Park', path: 'people/Dana Park.md' }, { name: 'Ghost', path: null }], related: [{ path: 'b.md', title: 'B', score: 1, restricted: false, reasons: [{ kind: 'links_here', text: 'links here', locator: 'b.md#L4-L4' }] }] },
      ...preview,
    },
  });
  render(<SourcePreview />);
  return follow;
}

describe('SourcePreview', () => {
  it('renders the note with its script as text, marks and scrolls to the cited block', () => {
    show({});
    const body = screen.getByTestId('rendered-note');
    expect(body.querySelector('script')).toBeNull();
    expect(body.textContent).toContain('<script>window.hacked = 1</script>');
    expect([...body.querySelectorAll('[data-cited]')].map((e) => e.textContent)).toEqual(['The relay listens on 7443.']);
    expect(scrolled).toEqual(['p:The relay listens on 7443.']);
  });

  it('opens a wikilink and a related note in the pane, and leaves a link to nothing inert', () => {
    const follow = show({});
    fireEvent.click(screen.getByText('Dana Park'));
    expect(follow).toHaveBeenLastCalledWith('people/Dana Park.md', undefined);
    fireEvent.click(screen.getByText('Ghost'));
    expect(follow).toHaveBeenCalledTimes(1);
    // The related note opens at the lines that make it related.
    fireEvent.click(screen.getByTestId('related-note'));
    expect(follow).toHaveBeenLastCalledWith('b.md#L4-L4', undefined);
    expect(screen.getByTestId('related-why').textContent).toBe('← links here');
  });

  it('scrolls to the heading a [[Note#Heading]] link named when no lines are cited', () => {
    show({ cited: false, anchor: 'ports' });
    expect(scrolled).toEqual(['h2:Ports']);
  });

  it('shows numbered lines in the lines view, and Back when there is somewhere to go back to', async () => {
    const back = vi.fn(async () => {});
    useApp.setState({ previewHistory: ['x.md'], previewBack: back });
    show({ view: 'lines' });
    expect(screen.queryByTestId('rendered-note')).toBeNull();
    expect(document.querySelector('.code__line--cited')?.textContent).toBe('9The relay listens on 7443.');
    await act(async () => void fireEvent.click(screen.getByTestId('preview-back')));
    expect(back).toHaveBeenCalled();
  });
});
