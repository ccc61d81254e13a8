import { clearInterval, setInterval } from 'node:timers';
import type { BodyMeter } from './read-body.js';

interface Watch {
  meter: BodyMeter;
  last: number;
  armed: boolean;
  onSlow: (received: number) => void;
}

/**
 * The low-speed limit for every body being read, on one shared timer (a per-request timer would cost more than the
 * check). Each body is judged over whole windows: a stalled or trickling one is reported one to two windows after
 * its body started.
 */
export class LowSpeedMonitor {
  readonly #active = new Set<Watch>();
  readonly #minBytes: number;
  readonly #windowMs: number;
  #timer: NodeJS.Timeout | undefined;

  constructor(bytesPerSec: number, windowMs: number) {
    this.#minBytes = (bytesPerSec * windowMs) / 1000;
    this.#windowMs = windowMs;
  }

  /** Watches `meter` until the returned function is called; `onSlow` is called at most once. */
  watch(meter: BodyMeter, onSlow: (received: number) => void): () => void {
    if (this.#minBytes === 0) return () => undefined;
    const watch: Watch = { meter, last: meter.wireBytes, armed: false, onSlow };
    this.#active.add(watch);
    if (!this.#timer) {
      this.#timer = setInterval(() => this.#tick(), this.#windowMs);
      this.#timer.unref();
    }
    return () => this.#active.delete(watch);
  }

  close(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
    this.#active.clear();
  }

  #tick(): void {
    if (this.#active.size === 0) {
      this.close();
      return;
    }
    for (const watch of this.#active) {
      const received = watch.meter.wireBytes - watch.last;
      watch.last = watch.meter.wireBytes;
      if (!watch.armed) {
        // The first tick comes after part of a window: it only sets the baseline.
        watch.armed = true;
      } else if (received < this.#minBytes) {
        this.#active.delete(watch);
        watch.onSlow(received);
      }
    }
  }
}
