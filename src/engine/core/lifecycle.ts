/** Disposables (docs/design.md §10): everything that holds a resource implements dispose(). */
export interface Disposable {
  dispose(): void | Promise<void>;
}

/** Collects disposables and disposes them in reverse order of registration, once. */
export class DisposableStore implements Disposable {
  private readonly items: Disposable[] = [];
  private disposed = false;

  add<T extends Disposable>(item: T): T {
    if (this.disposed) throw new Error('DisposableStore is already disposed');
    this.items.push(item);
    return item;
  }

  get isDisposed(): boolean {
    return this.disposed;
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    const errors: unknown[] = [];
    for (const item of this.items.splice(0).reverse()) {
      try {
        await item.dispose();
      } catch (error) {
        errors.push(error);
      }
    }
    if (errors.length > 0) throw new AggregateError(errors, 'Some resources failed to dispose');
  }
}
