// @vitest-environment happy-dom
import { cleanup, fireEvent, render } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { citationNumbers, CitedText, formatDuration, formatMs, Highlighted, plural } from './text.tsx';

afterEach(cleanup);

describe('Highlighted', () => {
  it('marks the passages the engine wrapped in « »', () => {
    const { container } = render(<Highlighted text="the «relay» listens on «port» 7443" />);
    expect([...container.querySelectorAll('mark')].map((m) => m.textContent)).toEqual(['relay', 'port']);
    expect(container.textContent).toBe('the relay listens on port 7443');
  });
});

describe('CitedText', () => {
  it('turns [n] and [n, m] into chips that open their source, and marks numbers with no source', () => {
    const onCite = vi.fn();
    const { getAllByRole, container } = render(<CitedText text="Port 7443 [1]. Deferred to Q4 [2, 9]." known={(n) => n <= 2} onCite={onCite} />);
    const chips = getAllByRole('button');
    expect(chips.map((c) => c.textContent)).toEqual(['1', '2']);
    fireEvent.click(chips[1]!);
    expect(onCite).toHaveBeenCalledWith(2);
    expect(container.querySelector('.cite-chip--dead')?.textContent).toBe('9');
    expect(container.textContent).toBe('Port 7443 1. Deferred to Q4 29.');
  });
});

describe('CitedText markdown', () => {
  it('shows **bold** as bold and [[links]] as links into the graph, without confusing them with citations', () => {
    const onLink = vi.fn();
    const { container, getByTitle } = render(<CitedText text="**Decider:** [[Maya Chen]] and [[notes/x|X note]] [1]" known={() => true} onCite={() => {}} onLink={onLink} />);
    expect(container.querySelector('strong')?.textContent).toBe('Decider:');
    expect([...container.querySelectorAll('.wikilink')].map((e) => e.textContent)).toEqual(['Maya Chen', 'X note']);
    fireEvent.click(getByTitle('Maya Chen in the graph'));
    expect(onLink).toHaveBeenCalledWith('Maya Chen');
    expect(container.querySelectorAll('.cite-chip')).toHaveLength(1);
    expect(container.textContent).toBe('Decider: Maya Chen and X note 1');
  });
});

describe('formatDuration', () => {
  it('reads as a person would say it', () => {
    expect([formatDuration(null), formatDuration(0.2), formatDuration(75), formatDuration(7300)]).toEqual(['—', '1 s', '1 min 15 s', '2 h 1 min']);
  });
});

describe('citationNumbers', () => {
  it('numbers sources in the order the answer first cites them, then the uncited ones', () => {
    const numbers = citationNumbers('UDP is blocked [6]. Permissions are fine [1, 6]. Also [9].', [1, 2, 6]);
    expect([...numbers]).toEqual([
      [6, 1],
      [1, 2],
      [2, 3],
    ]);
  });
});

describe('formatMs and plural', () => {
  it('reads as a person would say it', () => {
    expect(formatMs(583944)).toBe('9 min 44 s');
    expect(formatMs(3200)).toBe('3.2 s');
    expect(formatMs(69.4)).toBe('69 ms');
    expect(plural(1, 'passage')).toBe('1 passage');
    expect(plural(1200, 'passage')).toBe('1,200 passages');
  });
});
