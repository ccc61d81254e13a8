// What the first touch of fresh memory costs on this machine at this moment (faults37): 5 MB `SharedArrayBuffer`s,
// each new, one byte written in each 4 KiB page, against the same writes into one buffer kept. Printed beside the
// whole-page rows: on the lead's VM it moved 14-29 µs a page from hour to hour (normal hardware: ~0.5-1 µs), and a
// scrape of a big page takes some 1,500 such faults on its two threads, so the rows move with it.

const BYTES = 5 * 1024 * 1024;
const PAGE = 4096;
const ROUNDS = 20;

function touch(bytes: Uint8Array): void {
  for (let i = 0; i < bytes.length; i += PAGE) bytes[i] = 1;
}

/** Microseconds a first touch of a 4 KiB page costs beyond a write to a page already touched (~0.1 s to measure). */
export function freshPageMicros(): number {
  const kept = new Uint8Array(new SharedArrayBuffer(BYTES));
  touch(kept);
  let fresh = 0;
  let reused = 0;
  for (let round = 0; round < ROUNDS; round++) {
    let t0 = performance.now();
    touch(new Uint8Array(new SharedArrayBuffer(BYTES)));
    fresh += performance.now() - t0;
    t0 = performance.now();
    touch(kept);
    reused += performance.now() - t0;
  }
  return ((fresh - reused) * 1000) / (ROUNDS * (BYTES / PAGE));
}
