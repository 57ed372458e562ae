/** An answer's text as the Ask view and a conversation's earlier turns show it. */
import type { AnswerEnvelope } from '../../../shared/contract.ts';
import { quoteAndClosest } from '../../../shared/answer-view.ts';
import { useAppFields } from '../store.ts';
import { CitedText } from './text.tsx';

/**
 * An answer's text, each [n] a link to its source (numbered by `label`); an unsure quote's closest
 * sentences set apart under it. The Ask view's answer and each earlier turn of a conversation.
 */
export function AnswerBody({ answer, label }: { answer: AnswerEnvelope; label: (n: number) => number }) {
  const { openPreview, showGraph } = useAppFields('openPreview', 'showGraph');
  const cited = (text: string) => (
    <CitedText
      text={text}
      known={(n) => answer.snippets.some((s) => s.n === n)}
      label={label}
      onLink={(name) => void showGraph(name)}
      onCite={(n) => {
        const s = answer.snippets.find((x) => x.n === n);
        if (s) void openPreview(s.locator);
      }}
    />
  );
  const split = quoteAndClosest(answer);
  if (!split) {
    return (
      <p className="answer__text" dir="auto">
        {cited(answer.answer)}
      </p>
    );
  }
  return (
    <>
      <p className="answer__text" dir="auto">
        {cited(split.quote)}
      </p>
      <div className="answer__closest" data-testid="answer-closest">
        <p className="muted small">Other sentences of your notes close to the question:</p>
        <ul>
          {split.closest.map((line, i) => (
            <li key={i} dir="auto">
              {cited(line)}
            </li>
          ))}
        </ul>
      </div>
    </>
  );
}
