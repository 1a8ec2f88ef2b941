// Microphone capture on the audio thread: resample to the session rate, convert to PCM16, measure level.
// Runs in the AudioContext's own rate (often 48 kHz); the server wants 24 kHz mono PCM16 in 20 ms chunks.

const TARGET_RATE = 24000;
const CHUNK_SAMPLES = 480; // 20 ms at 24 kHz: small enough for low latency, large enough to keep messages few

// Windowed-sinc low-pass so downsampling does not fold high frequencies into the speech band.
function lowPassTaps(cutoff, count) {
  const taps = new Float32Array(count);
  const mid = (count - 1) / 2;
  let sum = 0;
  for (let i = 0; i < count; i++) {
    const x = i - mid;
    const sinc = x === 0 ? 2 * cutoff : Math.sin(2 * Math.PI * cutoff * x) / (Math.PI * x);
    const blackman = 0.42 - 0.5 * Math.cos((2 * Math.PI * i) / (count - 1)) + 0.08 * Math.cos((4 * Math.PI * i) / (count - 1));
    taps[i] = sinc * blackman;
    sum += taps[i];
  }
  for (let i = 0; i < count; i++) taps[i] /= sum;
  return taps;
}

// Filters and resamples one render quantum at a time into buffers it reuses (no allocation per block).
class Resampler {
  constructor(fromRate, toRate) {
    this.step = fromRate / toRate; // input samples per output sample
    this.taps = this.step > 1 ? lowPassTaps((0.5 / this.step) * 0.9, 8 * Math.ceil(this.step) * 2 + 1) : new Float32Array([1]);
    this.overlap = this.taps.length - 1; // input samples the filter needs from the previous block
    this.position = 0; // fractional index of the next output sample, relative to the current block's filtered output
    this.previous = 0; // last filtered sample of the previous block, for interpolation across blocks
    this.reserve(128);
  }

  // Buffers for blocks of up to `count` input samples; `joined` keeps the previous block's tail at its start.
  reserve(count) {
    const joined = new Float32Array(this.overlap + count);
    if (this.joined) joined.set(this.joined.subarray(0, this.overlap));
    this.joined = joined;
    this.filtered = new Float32Array(count);
    this.out = new Float64Array(Math.ceil(count / this.step) + 1);
  }

  // Resamples `input` into `this.out`; returns how many output samples it wrote there.
  process(input) {
    const count = input.length;
    if (this.filtered.length < count) this.reserve(count);
    const { taps, joined, filtered, out, overlap } = this;
    const n = taps.length;
    joined.set(input, overlap);
    for (let i = 0; i < count; i++) {
      let acc = 0;
      for (let k = 0; k < n; k++) acc += joined[i + k] * taps[k];
      filtered[i] = acc;
    }
    joined.copyWithin(0, count, count + overlap);

    // Linear interpolation at fractional positions; index -1 is the previous block's last sample.
    let written = 0;
    while (this.position < count - 1) {
      const i = Math.floor(this.position);
      const frac = this.position - i;
      const a = i < 0 ? this.previous : filtered[i];
      out[written++] = a + (filtered[i + 1] - a) * frac;
      this.position += this.step;
    }
    this.position -= count;
    this.previous = filtered[count - 1];
    return written;
  }
}

class MicProcessor extends AudioWorkletProcessor {
  constructor() {
    super();
    this.resampler = new Resampler(sampleRate, TARGET_RATE);
    this.chunk = new Int16Array(CHUNK_SAMPLES);
    this.filled = 0;
    this.sumSquares = 0;
  }

  process(inputs) {
    const channel = inputs[0] && inputs[0][0];
    if (!channel) return true;
    const count = this.resampler.process(channel);
    const resampled = this.resampler.out;
    for (let j = 0; j < count; j++) {
      const clamped = Math.max(-1, Math.min(1, resampled[j]));
      this.chunk[this.filled++] = clamped < 0 ? clamped * 0x8000 : clamped * 0x7fff;
      this.sumSquares += clamped * clamped;
      if (this.filled === CHUNK_SAMPLES) {
        const rms = Math.sqrt(this.sumSquares / CHUNK_SAMPLES);
        const dbfs = 20 * Math.log10(rms + 1e-9);
        const level = Math.max(0, Math.min(1, (dbfs + 60) / 60)); // -60 dBFS..0 dBFS -> 0..1
        this.port.postMessage({ pcm: this.chunk.buffer, level }, [this.chunk.buffer]);
        this.chunk = new Int16Array(CHUNK_SAMPLES);
        this.filled = 0;
        this.sumSquares = 0;
      }
    }
    return true;
  }
}

registerProcessor("parley-mic", MicProcessor);
