package io.weir.runtime.exchange;

import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * The encoded size of a record each channel of a gate delivered lately, for estimating the bytes
 * the gate holds: the reader encodes the first record of a channel's first batch, then of one batch
 * in {@link #SAMPLE_EVERY}, as a checkpoint would store it in flight. A channel whose records
 * cannot be encoded (no serializer, not serializable) stays unsized. Sampled by the gate's reader
 * thread, read by any thread.
 */
final class RecordSizes {
  /** Batches between two samples: encoding a record costs far more than handing one over. */
  static final int SAMPLE_EVERY = 64;

  private static final int UNSIZED = -1;

  private final InFlightRecords encoding;
  private final AtomicIntegerArray bytesByChannel;
  private int batchesSinceSample;

  RecordSizes(InFlightRecords encoding) {
    this.encoding = encoding;
    this.bytesByChannel = new AtomicIntegerArray(encoding.channels());
  }

  /** Called by the reader for each batch it took, before the records are processed. */
  void maybeSample(Batch batch) {
    int known = bytesByChannel.get(batch.channel);
    if (known == UNSIZED || (known > 0 && ++batchesSinceSample < SAMPLE_EVERY)) {
      return;
    }
    batchesSinceSample = 0;
    for (int i = 0; i < batch.size; i++) {
      Object value = batch.values[i];
      if (!(value instanceof StreamEvent)) {
        bytesByChannel.set(batch.channel, encoding.encodedSize(batch.channel, value));
        return;
      }
    }
  }

  /** The encoded bytes of a record of the channel; 0 before the first sample, -1 if unsized. */
  int bytesOf(int channel) {
    return bytesByChannel.get(channel);
  }
}
