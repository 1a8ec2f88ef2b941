// Reply playback on the audio thread, with a small jitter buffer.
// The page runs this in a 24 kHz AudioContext, so samples play as the server sent them (the browser
// resamples to the device). Playback starts once `jitterMs` of audio is queued (or the reply's audio is
// complete), so network bursts do not cause clicks. `flush` drops everything at once (barge-in) and
// reports how much of the item was actually played, which the page sends as conversation.item.truncate.

const PROGRESS_EVERY = 10; // render quanta between progress reports (~53 ms at 24 kHz)

class PlayerProcessor extends AudioWorkletProcessor {
  constructor(options) {
    super();
    const jitterMs = (options.processorOptions && options.processorOptions.jitterMs) || 80;
    this.jitterSamples = Math.round((jitterMs * sampleRate) / 1000);
    this.queue = []; // [{item, data: Float32Array, offset}]
    this.queued = 0;
    this.ended = new Set(); // items whose audio is complete: play them out even below the jitter threshold
    this.playing = false;
    this.item = null; // item currently (or last) playing
    this.itemPlayed = new Map(); // item -> samples played
    this.played = 0; // samples played in total
    this.drained = new Set(); // items played to their end
    this.underruns = 0;
    this.quanta = 0;
    this.port.onmessage = (event) => this.receive(event.data);
  }

  receive(message) {
    if (message.type === "audio") {
      const pcm = new Int16Array(message.pcm);
      const data = new Float32Array(pcm.length);
      for (let i = 0; i < pcm.length; i++) data[i] = pcm[i] / 0x8000;
      this.queue.push({ item: message.item, data, offset: 0 });
      this.queued += data.length;
    } else if (message.type === "end") {
      if (this.queue.some((c) => c.item === message.item)) this.ended.add(message.item);
      else this.drain(message.item);
    } else if (message.type === "flush") {
      const dropped = this.queued;
      const item = message.item || this.item; // the item the page asks about (it may not have started yet)
      this.queue = [];
      this.queued = 0;
      this.playing = false;
      this.port.postMessage({
        type: "flushed",
        item,
        itemPlayedSamples: item ? this.itemPlayed.get(item) || 0 : 0,
        droppedSamples: dropped,
        playedSamples: this.played,
      });
    }
  }

  drain(item) {
    this.ended.delete(item);
    this.drained.add(item);
    this.port.postMessage({ type: "drained", item, itemPlayedSamples: this.itemPlayed.get(item) || 0 });
  }

  process(inputs, outputs) {
    const out = outputs[0][0];
    const head = this.queue[0];
    if (!this.playing && head && (this.queued >= this.jitterSamples || this.ended.has(head.item))) {
      this.playing = true;
    }
    let written = 0;
    while (this.playing && written < out.length && this.queue.length) {
      const chunk = this.queue[0];
      if (!this.itemPlayed.has(chunk.item)) {
        this.itemPlayed.set(chunk.item, 0);
        this.port.postMessage({ type: "started", item: chunk.item });
      }
      this.item = chunk.item;
      const n = Math.min(out.length - written, chunk.data.length - chunk.offset);
      for (let i = 0; i < n; i++) out[written + i] = chunk.data[chunk.offset + i]; // no subarray view per quantum
      chunk.offset += n;
      written += n;
      this.queued -= n;
      this.played += n;
      this.itemPlayed.set(chunk.item, this.itemPlayed.get(chunk.item) + n);
      if (chunk.offset === chunk.data.length) {
        this.queue.shift();
        if (this.ended.has(chunk.item) && !this.queue.some((c) => c.item === chunk.item)) this.drain(chunk.item);
      }
    }
    for (let i = written; i < out.length; i++) out[i] = 0;
    if (this.playing && !this.queue.length) {
      this.playing = false; // out of audio: wait for the jitter threshold again (or the end mark)
      if (!this.drained.has(this.item)) this.underruns++;
    }
    for (let c = 1; c < outputs[0].length; c++) outputs[0][c].set(out);
    if (++this.quanta % PROGRESS_EVERY === 0) {
      this.port.postMessage({
        type: "progress",
        playing: this.playing,
        playedSamples: this.played,
        queuedSamples: this.queued,
        underruns: this.underruns,
      });
    }
    return true;
  }
}

registerProcessor("parley-player", PlayerProcessor);
