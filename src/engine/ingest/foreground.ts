/**
 * Questions first: while a retrieve or answer request is in flight, background work that can wait
 * (the sentence vectors) waits between pages, so the two CPU cores of a laptop embed the question
 * and rank its passages instead of the thousandth sentence. The work resumes when the last request
 * in flight ends.
 */
export class ForegroundGate {
  private active = 0;
  private waiters: (() => void)[] = [];
  /** Requests that paused background work (tests, health). */
  waited = 0;

  /** A request started; call the returned function once when it ends (more calls do nothing). */
  begin(): () => void {
    this.active++;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.active--;
      if (this.active === 0) for (const resume of this.waiters.splice(0)) resume();
    };
  }

  get busy(): boolean {
    return this.active > 0;
  }

  /** Resolves at once when no request is in flight, else when the last one ends. */
  idle(): Promise<void> {
    if (this.active === 0) return Promise.resolve();
    this.waited++;
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** `run` with background work paused while it runs (a handler, sync or async). */
  wrap<A extends unknown[], R>(run: (...args: A) => R): (...args: A) => R {
    return (...args: A): R => {
      const end = this.begin();
      try {
        const result = run(...args);
        if (result instanceof Promise) return result.finally(end) as R;
        end();
        return result;
      } catch (error) {
        end();
        throw error;
      }
    };
  }
}
