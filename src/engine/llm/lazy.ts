/**
 * A model loaded on first use and released after an idle period or on unload: the lifecycle the
 * chat model, the embedder and the reranker share (docs/design.md §8: models load lazily and are
 * disposed on idle and shutdown).
 */
export class LazyModel<T> {
  private loaded: Promise<T> | null = null;
  private idleTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly load: () => Promise<T>,
    private readonly release: (value: T) => Promise<void>,
    /** Release after this long without use (ms); 0 keeps the model loaded. */
    private readonly idleMs = 0,
  ) {}

  /** The loaded model, loading it first if needed (a failed load is tried again next time); restarts the idle timer. */
  get(): Promise<T> {
    if (!this.loaded) {
      const loading = this.load();
      this.loaded = loading;
      loading.catch(() => {
        if (this.loaded === loading) this.loaded = null;
      });
    }
    this.touch();
    return this.loaded;
  }

  private touch(): void {
    if (!this.idleMs) return;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => void this.unload(), this.idleMs);
    this.idleTimer.unref();
  }

  async unload(): Promise<void> {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    const pending = this.loaded;
    this.loaded = null;
    const value = await pending?.catch(() => null);
    if (value) await this.release(value);
  }
}
