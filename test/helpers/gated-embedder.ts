/**
 * The hashed embedder behind a gate: while held, each batch of documents waits until the test lets
 * it through, so a test can look at the engine (and the app) in the middle of its embedding stage.
 */
import { HashedEmbedder } from '../../src/cli/bench/hashed-embedder.ts';

export class GatedEmbedder extends HashedEmbedder {
  /** Batches of documents started so far. */
  batches = 0;
  private open = false;
  private waiting: (() => void)[] = [];
  private onBatch: (() => void)[] = [];
  /** Runs as each batch after the first starts, before it waits at the gate. */
  beforeBatch: (() => Promise<void>) | null = null;

  override async embedMany(texts: readonly string[], kind: 'query' | 'document') {
    if (kind === 'document') {
      this.batches++;
      for (const fn of this.onBatch.splice(0)) fn();
      if (this.batches > 1 && this.beforeBatch) await this.beforeBatch();
      if (!this.open) await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
    return super.embedMany(texts, kind);
  }

  /** Resolves when the next batch starts. */
  nextBatch(): Promise<void> {
    return new Promise((resolve) => this.onBatch.push(resolve));
  }

  /** Lets every waiting and later batch through. */
  letThrough(): void {
    this.open = true;
    for (const resolve of this.waiting.splice(0)) resolve();
  }

  /** Later batches wait again. */
  hold(): void {
    this.open = false;
  }
}
